import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { COMMISSION_OPERATIONS, getMerchantCommissions, setMerchantCommissions } from '../../../ledger/index.ts';
import { getMerchant } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { commissionChangesOfForm, commissionFormValuesOf, commissionFormValuesOfBody, type CommissionFormValues } from './merchants-commissions-form.ts';
import { recordIdOf } from './merchants-params.ts';

type MerchantRequest = FastifyRequest<{ Params: { id: string } }>;

const OPERATION_NAMES: Readonly<Record<(typeof COMMISSION_OPERATIONS)[number], string>> = { pay: 'Payments', payout: 'Payouts', refund: 'Refunds' };

// Editing a merchant's commission terms (commissions.write): the ledger's flow behind PUT
// /api/admin/v1/merchants/{id}/commissions. Reading them is on the merchant's page (commissions.read).
export async function merchantCommissionsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  const showForm = async (request: MerchantRequest, reply: FastifyReply, values: CommissionFormValues | null, problem: SafeHtml | '', status = 200) => {
    const merchant = await getMerchant(db, recordIdOf(request.params.id));
    const shown = values ?? commissionFormValuesOf(await getMerchantCommissions(db, merchant.id));
    const body = html`${problem}${commissionsForm(request, merchant.id, shown)}`;
    return opsPage(request, reply, { title: `Commissions of merchant #${merchant.id}: ${merchant.name}`, area: 'merchants', body, status });
  };

  app.get<{ Params: { id: string } }>('/merchants/:id/commissions', async (request, reply) => {
    requireOperatorAction(request, 'commissions.write');
    return showForm(request, reply, null, '');
  });

  app.post<{ Params: { id: string } }>('/merchants/:id/commissions', async (request, reply) => {
    requireOperatorAction(request, 'commissions.write');
    const merchantId = recordIdOf(request.params.id);
    const values = commissionFormValuesOfBody(request.body);
    setAuditAction('commission.update');
    try {
      await setMerchantCommissions(db, merchantId, commissionChangesOfForm(values));
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
      return showForm(request, reply, values, problemOf(error), 400);
    }
    return reply.redirect(`/ops/merchants/${merchantId}?done=commissions`, 303);
  });
}

function commissionsForm(request: FastifyRequest, merchantId: number, values: CommissionFormValues): SafeHtml {
  const fieldset = (operation: (typeof COMMISSION_OPERATIONS)[number]) => html`<fieldset>
  <legend>${OPERATION_NAMES[operation]}</legend>
  <label for="${operation}-percent">Percent (at most two decimals)</label>
  <input id="${operation}-percent" name="${operation}_percent" inputmode="decimal" value="${values[`${operation}_percent`] ?? ''}">
  <label for="${operation}-fixed">Fixed part (minor units of the operation’s currency)</label>
  <input id="${operation}-fixed" name="${operation}_fixed" inputmode="numeric" value="${values[`${operation}_fixed`] ?? ''}">
</fieldset>`;
  return html`<p>Both fields blank: no commission on that operation. Payments already created keep the terms they copied.</p>
<form method="post" action="/ops/merchants/${merchantId}/commissions" class="stack">
  ${csrfField(request)}
  ${COMMISSION_OPERATIONS.map(fieldset)}
  <button type="submit">Save the commissions</button>
  <a href="/ops/merchants/${merchantId}">Cancel</a>
</form>`;
}
