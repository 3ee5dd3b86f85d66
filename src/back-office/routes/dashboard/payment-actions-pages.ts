import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  cancelPaymentDetail,
  confirmPaymentDetail,
  declinePaymentDetail,
  refundablePayment,
  refundPayment,
  type MerchantScope,
  type PaymentRow,
} from '../../../payments/index.ts';
import { currencyExponent, type CurrencyTable } from '../../../platform/lib/currencies.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { parseAmountInput } from '../../domain/amount-input.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { actionTitle, confirmActionView, PAYMENT_ACTIONS, type PaymentAction } from './payment-actions-view.ts';
import type { DoneNotice } from './texts-payments.ts';

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

// Refund, capture, void and cancel: a confirmation page, then the POST that calls the flow the merchant API's route
// calls (POST /api/v1/refunds, /payments/{token}/confirm, /decline, /cancel), with its rules and its errors. The
// role is checked on the server for both. A refusal is shown on the confirmation page with the flow's status; the
// dashboard's POSTs carry no Idempotency-Key: a refund form sent twice meets the flow's refunded-as-seen check.
export async function paymentActionsPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const currencies = app.payrail.currencies;
  const deps = { context: app.payrail, adapterClient: app.payrail.adapterClient };

  const confirmPage = async (request: TokenRequest, reply: FastifyReply, action: PaymentAction, problem?: unknown) => {
    const viewer = requireAction(request, 'refund');
    const subject = await refundablePayment(db, scopeOf(viewer), request.params.token);
    const shown = problem === undefined ? '' : problemOf(problem);
    const status = problem instanceof ApiError ? problem.statusCode : 200;
    const body = confirmActionView(request, currencies, action, subject, shown, request.method === 'GET' ? null : formText(request.body, 'amount'));
    return memberPage(request, reply, { title: actionTitle(action), area: 'payments', body, status });
  };

  const act = async (request: TokenRequest, reply: FastifyReply, action: PaymentAction, run: (scope: MerchantScope) => Promise<DoneNotice>) => {
    const viewer = requireAction(request, 'refund');
    try {
      const done = await run(scopeOf(viewer));
      return reply.redirect(`/dashboard/payments/${request.params.token}?done=${done}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 403 || error.statusCode === 404) throw error;
      return confirmPage(request, reply, action, error);
    }
  };

  for (const action of PAYMENT_ACTIONS) {
    app.get<{ Params: { token: string } }>(`/payments/:token/${action}`, async (request, reply) => confirmPage(request, reply, action));
  }

  app.post<{ Params: { token: string } }>('/payments/:token/refund', async (request, reply) =>
    act(request, reply, 'refund', async (scope) => {
      const { payment } = await refundablePayment(db, scope, request.params.token);
      const amountMinor = amountOf(request.body, payment, currencies);
      const seen = /^[0-9]{1,15}$/.test(formText(request.body, 'refundedSeen')) ? Number(formText(request.body, 'refundedSeen')) : undefined;
      const input = { paymentToken: payment.token, amountMinor, ...(seen === undefined ? {} : { refundedMinorSeen: seen }) };
      const { refund } = await refundPayment(deps, scope, input, null);
      return `refund_${refund.status}`;
    }),
  );

  app.post<{ Params: { token: string } }>('/payments/:token/capture', async (request, reply) =>
    act(request, reply, 'capture', async (scope) => {
      const { payment } = await refundablePayment(db, scope, request.params.token);
      await confirmPaymentDetail(deps, merchantCall(scope, payment.token), amountOf(request.body, payment, currencies));
      return 'captured';
    }),
  );

  app.post<{ Params: { token: string } }>('/payments/:token/void', async (request, reply) =>
    act(request, reply, 'void', async (scope) => {
      await declinePaymentDetail(deps, merchantCall(scope, request.params.token));
      return 'voided';
    }),
  );

  app.post<{ Params: { token: string } }>('/payments/:token/cancel', async (request, reply) =>
    act(request, reply, 'cancel', async (scope) => {
      await cancelPaymentDetail(db, scope, request.params.token);
      return 'cancelled';
    }),
  );
}

export function scopeOf(viewer: DashboardViewer): MerchantScope {
  return { merchantId: viewer.merchantId, environment: viewer.environment };
}

// The API route's call without an Idempotency-Key: nothing to commit before the adapter is asked.
function merchantCall(scope: MerchantScope, token: string) {
  return { scope, token, beforeAdapterCall: async () => {} };
}

// The amount typed in the currency's major units, as minor units; empty: null (the flow's "all of it").
function amountOf(body: unknown, payment: PaymentRow, currencies: CurrencyTable): number | null {
  const typed = formText(body, 'amount').trim();
  if (typed === '') return null;
  const exponent = currencyExponent(currencies, payment.currency);
  const parsed =
    exponent === undefined
      ? { ok: false as const, message: `${payment.currency} is no longer a configured currency: leave the amount empty` }
      : parseAmountInput(typed, exponent, payment.currency);
  if (parsed.ok) return parsed.amountMinor;
  throw new ApiError('invalid_amount', 422, `amount: ${parsed.message}`, [{ code: 'invalid_amount', field: 'amount', message: parsed.message }]);
}
