import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MerchantPaymentCall } from '../../../flows/two-step.ts';
import { getPaymentDetail } from '../../../flows/payment-detail.ts';
import { commitIdempotentRequest, type IdempotentReplay } from '../idempotency.ts';
import { presentDetail } from './present.ts';

// What the POST /api/v1/payments/{token}/<action> routes share (confirm, decline, cancel, secure_code, resend_otp,
// next_step): they answer the payment as GET shows it, act for the calling merchant, and may come without a body.

export function paymentDetailEnvelope(detail: { payment: Parameters<typeof presentDetail>[0]; logs: Parameters<typeof presentDetail>[1] }) {
  return { success: true as const, errors: [], status: 200, payment: presentDetail(detail.payment, detail.logs) };
}

export function merchantPaymentCall(request: FastifyRequest<{ Params: { token: string } }>): MerchantPaymentCall {
  return {
    scope: request.merchant!,
    token: request.params.token,
    // the adapter is about to be asked: this key's outcome (the payment, getPayment found it) is stored from here on
    beforeAdapterCall: () => commitIdempotentRequest(request, { kind: 'payment', token: request.params.token }),
  };
}

// The route config of an action: a retry whose first request died before it answered gets the payment as it is now.
export function paymentDetailReplay(app: FastifyInstance): { idempotentReplay: IdempotentReplay } {
  return {
    idempotentReplay: async (request, resource) => paymentDetailEnvelope(await getPaymentDetail(app.payrail.database.db, request.merchant!, resource.token)),
  };
}

// A POST without a body reads as {} (validated as such, and digested so by Idempotency-Key).
export function acceptMissingBody(routes: FastifyInstance): void {
  routes.addHook('preValidation', async (request) => {
    if (request.body === undefined) request.body = {};
  });
}
