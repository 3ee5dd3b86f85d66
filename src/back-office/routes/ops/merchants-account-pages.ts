import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { changeMerchantStatus, getMerchant, rotateMerchantKey, setMerchantDisplayName } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { operatorMay } from '../../domain/operator-roles.ts';
import { operatorMerchantView } from '../../flows/ops-merchants.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { merchantDetailView } from './merchants-detail-view.ts';
import { recordIdOf } from './merchants-params.ts';

type KeyParams = { Params: { id: string; environment: string } };

// A merchant's status (disable after a confirmation, enable), its display name, and key rotation (a confirmation,
// then the new key shown once): the admin API's flows (payments/flows/merchants.ts), its caches dropped as it does.
export async function merchantAccountPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;
  const masterKey = app.payrail.masterKey;

  app.post<{ Params: { id: string } }>('/merchants/:id/enable', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const merchantId = recordIdOf(request.params.id);
    setAuditAction('merchant.enable');
    await changeMerchantStatus(db, merchantId, 'active');
    app.merchantKeyCache.clear(); // this process at once; the others on the NOTIFY
    return reply.redirect(`/ops/merchants/${merchantId}?done=enabled`, 303);
  });

  app.get<{ Params: { id: string } }>('/merchants/:id/disable', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const merchant = await getMerchant(db, recordIdOf(request.params.id));
    const body = confirmation(request, {
      warning: 'Its sandbox and production keys are refused at once (403 merchant_disabled); its data stays, and it can be enabled again.',
      action: `/ops/merchants/${merchant.id}/disable`,
      button: 'Disable the merchant',
      back: `/ops/merchants/${merchant.id}`,
    });
    return opsPage(request, reply, { title: `Disable merchant #${merchant.id}: ${merchant.name}`, area: 'merchants', body });
  });

  app.post<{ Params: { id: string } }>('/merchants/:id/disable', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const merchantId = recordIdOf(request.params.id);
    setAuditAction('merchant.disable');
    await changeMerchantStatus(db, merchantId, 'disabled');
    app.merchantKeyCache.clear();
    return reply.redirect(`/ops/merchants/${merchantId}?done=disabled`, 303);
  });

  app.post<{ Params: { id: string } }>('/merchants/:id/display-name', async (request, reply) => {
    const operator = requireOperatorAction(request, 'merchants.write');
    const merchantId = recordIdOf(request.params.id);
    setAuditAction('merchant.rename');
    try {
      await setMerchantDisplayName(db, merchantId, formText(request.body, 'displayName'));
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
      const view = await operatorMerchantView(app.payrail, merchantId, operatorMay(operator.role, 'commissions.read'));
      const body = merchantDetailView(request, operator, view, problemOf(error));
      return opsPage(request, reply, { title: `Merchant #${merchantId}: ${view.merchant.name}`, area: 'merchants', body, status: 400 });
    }
    return reply.redirect(`/ops/merchants/${merchantId}?done=renamed`, 303);
  });

  app.get<KeyParams>('/merchants/:id/keys/:environment/rotate', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const environment = environmentOf(request.params.environment);
    const merchant = await getMerchant(db, recordIdOf(request.params.id));
    if (!merchant.keys.some((key) => key.environment === environment)) throw new ApiError('not_found', 404, `the merchant has no ${environment} key`);
    const body = confirmation(request, {
      warning: `A new ${environment} key replaces the old one, which stops working at once in every Payrail process. The new key is shown once.`,
      action: `/ops/merchants/${merchant.id}/keys/${environment}/rotate`,
      button: `Rotate the ${environment} key`,
      back: `/ops/merchants/${merchant.id}`,
    });
    return opsPage(request, reply, { title: `Rotate the ${environment} key of merchant #${merchant.id}`, area: 'merchants', body });
  });

  app.post<KeyParams>('/merchants/:id/keys/:environment/rotate', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const environment = environmentOf(request.params.environment);
    const merchantId = recordIdOf(request.params.id);
    setAuditAction('merchant_key.rotate');
    const key = await rotateMerchantKey(db, masterKey, merchantId, environment);
    app.merchantKeyCache.clear();
    return newKeyPage(request, reply, merchantId, environment, key);
  });
}

function environmentOf(text: string): 'sandbox' | 'production' {
  if (text === 'sandbox' || text === 'production') return text;
  throw new ApiError('not_found', 404, 'there is no such key');
}

function confirmation(request: FastifyRequest, page: { warning: string; action: string; button: string; back: string }): SafeHtml {
  return html`<p class="error" role="note">${page.warning}</p>
<form method="post" action="${page.action}" class="inline">
  ${csrfField(request)}
  <button type="submit" class="danger">${page.button}</button>
  <a href="${page.back}">Cancel</a>
</form>`;
}

// The one time the key is readable: this answer (no-store, like every answer of the app), never a page after it.
function newKeyPage(request: FastifyRequest, reply: FastifyReply, merchantId: number, environment: string, key: string): FastifyReply {
  const body = html`<p class="ok" role="status">The new key is shown this once: hand it to the merchant now. The old key no longer works.</p>
<p><code class="secret" id="new-key">${key}</code></p>
<p><button type="button" class="secondary" data-copy="new-key">Copy</button></p>
<p><a href="/ops/merchants/${merchantId}">Back to the merchant</a></p>`;
  return opsPage(request, reply, { title: `New ${environment} key of merchant #${merchantId}`, area: 'merchants', body });
}
