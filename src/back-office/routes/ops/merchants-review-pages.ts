import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { approveMerchant, getMerchant, REVIEW_NOTE_CHARS_MAX, rejectMerchant } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { recordIdOf } from './merchants-params.ts';

type MerchantRequest = FastifyRequest<{ Params: { id: string } }>;

// The review of a dashboard sign-up: approve (payments/flows/merchant-signup.ts approveMerchant, as
// POST /api/admin/v1/merchants/{id}/approve), or reject with the reason its members are shown (rejectMerchant).
export async function merchantReviewPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  app.post<{ Params: { id: string } }>('/merchants/:id/approve', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const merchantId = recordIdOf(request.params.id);
    setAuditAction('merchant.approve');
    await approveMerchant(db, merchantId);
    return reply.redirect(`/ops/merchants/${merchantId}?done=approved`, 303);
  });

  const showRejectForm = async (request: MerchantRequest, reply: FastifyReply, reason: string, problem: SafeHtml | '', status = 200) => {
    const merchant = await getMerchant(db, recordIdOf(request.params.id));
    const body = html`${problem}
<p>The merchant’s members see this reason in the dashboard. The merchant keeps its sandbox key and gets no production key.</p>
<form method="post" action="/ops/merchants/${merchant.id}/reject" class="stack">
  ${csrfField(request)}
  <label for="reject-reason">Reason (required, at most ${REVIEW_NOTE_CHARS_MAX} characters)</label>
  <textarea id="reject-reason" name="reason" rows="4" maxlength="${REVIEW_NOTE_CHARS_MAX}" required>${reason}</textarea>
  <button type="submit" class="danger">Reject the sign-up</button>
  <a href="/ops/merchants/${merchant.id}">Cancel</a>
</form>`;
    return opsPage(request, reply, { title: `Reject merchant #${merchant.id}: ${merchant.name}`, area: 'merchants', body, status });
  };

  app.get<{ Params: { id: string } }>('/merchants/:id/reject', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    return showRejectForm(request, reply, '', '');
  });

  app.post<{ Params: { id: string } }>('/merchants/:id/reject', async (request, reply) => {
    requireOperatorAction(request, 'merchants.write');
    const merchantId = recordIdOf(request.params.id);
    const reason = formText(request.body, 'reason');
    setAuditAction('merchant.reject');
    try {
      await rejectMerchant(db, merchantId, reason);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.statusCode !== 422 && error.statusCode !== 409)) throw error;
      return showRejectForm(request, reply, reason, problemOf(error), error.statusCode === 409 ? 409 : 400);
    }
    return reply.redirect(`/ops/merchants/${merchantId}?done=rejected`, 303);
  });
}
