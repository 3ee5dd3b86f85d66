import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { searchPaymentsAcrossMerchants, type OperatorPaymentSearchResult } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { checkStatusAsOperator, operatorPaymentView, resendAsOperator } from '../../flows/ops-payments.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { timelineTexts } from '../../pages/payment-timeline-texts.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { paymentSearchView, searchParamsOf, searchTextOf } from './payments-search-view.ts';
import { opsTimelineView, PAYMENT_DONE_TEXTS, type PaymentDone } from './payments-timeline.ts';

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

// Payments of every merchant: the search (searchPaymentsAcrossMerchants), each payment's timeline by its token (tokens
// are unique across merchants and modes) — the dashboard's page, built by the same code — with the status check now
// and the resend, each checked against the operator's role on the server.
export async function paymentsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;
  const currencies = app.payrail.currencies;
  const deps = { context: app.payrail, adapterClient: app.payrail.adapterClient };

  app.get('/payments', async (request, reply) => {
    requireOperatorAction(request, 'payments.read');
    const params = searchParamsOf(request.query);
    const text = searchTextOf(params);
    let found: OperatorPaymentSearchResult | null = null;
    let problem: SafeHtml | '' = '';
    let status = 200;
    try {
      found = text === null ? null : await searchPaymentsAcrossMerchants(db, text);
    } catch (error) {
      problem = problemOf(error);
      status = error instanceof ApiError ? error.statusCode : 422;
    }
    return opsPage(request, reply, { title: 'Payments', area: 'payments', status, body: paymentSearchView(currencies, params, found, problem) });
  });

  const showTimeline = async (request: TokenRequest, reply: FastifyReply, notice: SafeHtml | '', status = 200) => {
    const operator = requireOperatorAction(request, 'payments.read');
    const view = await operatorPaymentView(db, request.params.token);
    const body = opsTimelineView(request, operator, currencies, view, notice);
    return opsPage(request, reply, { title: timelineTexts.timelineTitle(view.timeline.payment.token), area: 'payments', status, body });
  };

  app.get<{ Params: { token: string } }>('/payments/:token', async (request, reply) => {
    const done = formText(request.query, 'done');
    const notice = Object.hasOwn(PAYMENT_DONE_TEXTS, done) ? html`<p class="ok" role="status">${PAYMENT_DONE_TEXTS[done as PaymentDone]}</p>` : '';
    return showTimeline(request, reply, notice);
  });

  // A refusal of the flow (not a payment the checker asks about, an exchange in flight, no gateway) on the page.
  app.post<{ Params: { token: string } }>('/payments/:token/check', async (request, reply) => {
    requireOperatorAction(request, 'payments.check');
    setAuditAction('payment.check_status');
    let done: PaymentDone;
    try {
      const checked = await checkStatusAsOperator(deps, request.params.token);
      done = checked.changed ? 'moved' : checked.failedLookup === null ? 'unchanged' : 'failed';
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 404) throw error;
      return showTimeline(request, reply, problemOf(error), error.statusCode);
    }
    return reply.redirect(`/ops/payments/${request.params.token}?done=${done}`, 303);
  });

  // The flow of POST /api/v1/payments/{token}/notifications/resend; its refusals (not final, no callback URL) on the page.
  app.post<{ Params: { token: string } }>('/payments/:token/notifications/resend', async (request, reply) => {
    requireOperatorAction(request, 'payments.resend');
    setAuditAction('notification.resend');
    try {
      await resendAsOperator(db, request.params.token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 404) throw error;
      return showTimeline(request, reply, problemOf(error), error.statusCode);
    }
    return reply.redirect(`/ops/payments/${request.params.token}?done=resent`, 303);
  });
}
