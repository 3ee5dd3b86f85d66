import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getMerchant, issueProductionKey, rotateMerchantKey } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { MODE_NAMES, showDevelopers } from './developers-pages.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction } from './guard.ts';
import { memberPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';
import { developerTexts as T } from './texts-developers.ts';

type Environment = 'sandbox' | 'production';
type EnvironmentParams = { Params: { environment: string } };

// Key rotation (a confirmation, then the new key shown once) and the first live key of an approved merchant: the
// admin API's flows (payments/flows/merchants.ts rotateMerchantKey, merchant-signup.ts issueProductionKey).
export async function developerKeysPages(app: FastifyInstance): Promise<void> {
  const { db, masterKey } = app.dashboardDeps;

  app.get<EnvironmentParams>('/developers/keys/:environment/rotate', async (request, reply) => {
    const viewer = requireAction(request, 'keys');
    const environment = environmentOf(request.params.environment);
    const merchant = await getMerchant(db, viewer.merchantId);
    if (!merchant.keys.some((key) => key.environment === environment)) throw new ApiError('not_found', 404, T.noProductionKey);
    const mode = MODE_NAMES[environment];
    const body = html`<p class="error" role="note">${T.rotateWarning}</p>
<form method="post" action="/dashboard/developers/keys/${environment}/rotate" class="inline">
  ${csrfField(request)}
  <button type="submit" class="danger">${T.rotateConfirm(mode)}</button>
  <a href="/dashboard/developers">${T.backToDevelopers}</a>
</form>`;
    return memberPage(request, reply, { title: T.rotateTitle(mode), area: 'developers', body });
  });

  app.post<EnvironmentParams>('/developers/keys/:environment/rotate', async (request, reply) => {
    const viewer = requireAction(request, 'keys');
    const environment = environmentOf(request.params.environment);
    const key = await rotateMerchantKey(db, masterKey, viewer.merchantId, environment);
    app.merchantKeyCache.clear(); // this process at once; the others on the NOTIFY
    request.log.info({ merchantId: viewer.merchantId, memberId: viewer.memberId, environment }, 'merchant key rotated in the dashboard');
    return newKeyPage(request, reply, environment, key);
  });

  app.post('/developers/keys/production/issue', async (request, reply) => {
    const viewer = requireAction(request, 'keys');
    try {
      const key = await issueProductionKey(db, masterKey, viewer.merchantId);
      request.log.info({ merchantId: viewer.merchantId, memberId: viewer.memberId }, 'production key issued in the dashboard');
      return newKeyPage(request, reply, 'production', key);
    } catch (error) {
      // Not approved yet, or issued already (another tab): the page says so, with the keys as they are.
      if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
      return showDevelopers(app, request, reply, problemOf(error), 409);
    }
  });
}

function environmentOf(value: string): Environment {
  if (value === 'sandbox' || value === 'production') return value;
  throw new ApiError('not_found', 404, 'there is no such key');
}

// The one time the key is readable: this answer (no-store, like every answer of the app), never a page after it.
function newKeyPage(request: FastifyRequest, reply: FastifyReply, environment: Environment, key: string): FastifyReply {
  const mode = MODE_NAMES[environment];
  const body = html`<p class="ok" role="status">${T.newKeyOnce}</p>
<p><code class="secret" id="new-key">${key}</code></p>
<p><button type="button" class="secondary" data-copy="new-key">${T.copy}</button></p>
<p><a href="/dashboard/developers">${T.backToDevelopers}</a></p>`;
  return memberPage(request, reply, { title: T.newKeyTitle(mode), area: 'developers', body });
}
