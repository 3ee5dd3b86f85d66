import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { findPayments, paymentTimeline, resendNotification, type PaymentListResult } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction, viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { paymentActionsPages, scopeOf } from './payment-actions-pages.ts';
import { dashboardTimelineView } from './payment-timeline-view.ts';
import { sendPaymentsCsv } from './payments-csv.ts';
import { paymentsListView } from './payments-list-view.ts';
import { exportQueryOf, listParamsOf, listQueryOf } from './payments-query.ts';
import { paymentTexts as T, type DoneNotice } from './texts-payments.ts';

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

// Payments: the list (the merchant API's list flow with its filters, the dashboard's search, keyset pages), its CSV
// export, each payment's timeline with the Resend button, and the actions (payment-actions-pages.ts); all in the
// viewer's merchant and mode only: another merchant's or mode's token is a 404, as in the API.
export async function paymentsPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const currencies = app.payrail.currencies;

  app.get('/payments', async (request, reply) => {
    const viewer = viewerOf(request);
    const params = listParamsOf(request.query);
    let found: PaymentListResult | null = null;
    let problem: SafeHtml | '' = '';
    let status = 200;
    try {
      found = await findPayments(db, scopeOf(viewer), listQueryOf(params));
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      problem = problemOf(error);
      status = error.statusCode;
    }
    return memberPage(request, reply, { title: T.listTitle, area: 'payments', status, body: paymentsListView(currencies, params, found, problem) });
  });

  app.get('/payments/export.csv', async (request, reply) => {
    const viewer = viewerOf(request);
    const params = listParamsOf(request.query);
    const fileName = `payments-${viewer.environment}-${new Date().toISOString().slice(0, 10)}.csv`;
    try {
      return await sendPaymentsCsv(reply, { db, currencies, scope: scopeOf(viewer) }, exportQueryOf(params), fileName);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      const body = paymentsListView(currencies, params, null, problemOf(error));
      return memberPage(request, reply, { title: T.listTitle, area: 'payments', status: error.statusCode, body });
    }
  });

  const showTimeline = async (request: TokenRequest, reply: FastifyReply, notice: SafeHtml | '', status = 200) => {
    const viewer = viewerOf(request);
    const timeline = await paymentTimeline(db, scopeOf(viewer), request.params.token);
    const body = dashboardTimelineView(request, viewer, currencies, timeline, notice);
    return memberPage(request, reply, { title: T.timelineTitle(timeline.payment.token), area: 'payments', status, body });
  };

  app.get<{ Params: { token: string } }>('/payments/:token', async (request, reply) => {
    const done = formText(request.query, 'done');
    const notice = Object.hasOwn(T.done, done) ? html`<p class="ok" role="status">${T.done[done as DoneNotice]}</p>` : '';
    return showTimeline(request, reply, notice);
  });

  // The flow of POST /api/v1/payments/{token}/notifications/resend; its refusals (not final, no callback URL) on the page.
  app.post<{ Params: { token: string } }>('/payments/:token/notifications/resend', async (request, reply) => {
    const viewer = requireAction(request, 'resend');
    try {
      await resendNotification(db, scopeOf(viewer), request.params.token);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 403 || error.statusCode === 404) throw error;
      return showTimeline(request, reply, problemOf(error), error.statusCode);
    }
    return reply.redirect(`/dashboard/payments/${request.params.token}?done=resent`, 303);
  });

  await app.register(paymentActionsPages);
}
