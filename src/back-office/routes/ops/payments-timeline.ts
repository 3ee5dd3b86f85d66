import type { FastifyRequest } from 'fastify';
import { awaitsStatusCheck, type PaymentTimeline } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { operatorMay } from '../../domain/operator-roles.ts';
import type { OperatorPaymentView } from '../../flows/ops-payments.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import { csrfField } from '../../pages/document.ts';
import { paymentTimelineView } from '../../pages/payment-timeline.ts';

// What a console page says after an action on a payment (?done=…).
export const PAYMENT_DONE_TEXTS = {
  moved: 'The status check moved the payment: its new status is above, the change in its status changes.',
  unchanged: 'The gateway was asked: its answer leaves the payment where it is.',
  failed: 'The status lookup failed: the payment keeps its status (the exchange below says why). The status checker asks again on its schedule.',
  resent: 'The notification is queued: it goes to the merchant’s callback URL shortly.',
} as const;

export type PaymentDone = keyof typeof PAYMENT_DONE_TEXTS;

// Any merchant's payment as an operator sees it: the dashboard's timeline page (pages/payment-timeline.ts) with whose
// payment it is, the status check now for a role that may (and a payment the status checker would ask about), and
// the Resend button for a role that may resend.
export function opsTimelineView(
  request: FastifyRequest,
  operator: OperatorViewer,
  currencies: CurrencyTable,
  view: OperatorPaymentView,
  notice: SafeHtml | '',
): SafeHtml {
  const { payment } = view.timeline;
  const viewer = {
    base: '/ops',
    perspective: 'operator',
    mayResend: operatorMay(operator.role, 'payments.resend'),
    actions: checkAction(request, operator, view.timeline),
    facts: html`<dt>Merchant</dt><dd><a href="/ops/merchants/${payment.merchantId}">${view.merchantName}</a> (#${payment.merchantId})</dd>
  <dt>Mode</dt><dd>${payment.environment === 'production' ? 'live' : 'test (sandbox)'}</dd>
  ${payment.gatewayToken === null ? '' : html`<dt>Gateway token</dt><dd><code>${payment.gatewayToken}</code></dd>`}`,
  } as const;
  return paymentTimelineView(request, viewer, currencies, view.timeline, notice);
}

function checkAction(request: FastifyRequest, operator: OperatorViewer, timeline: PaymentTimeline): SafeHtml {
  const { payment } = timeline;
  if (!operatorMay(operator.role, 'payments.check') || !awaitsStatusCheck(payment)) {
    return html`<p class="empty">No action applies to this payment now, or your role does not allow one.</p>`;
  }
  return html`<form method="post" action="/ops/payments/${payment.token}/check" class="inline" data-once>
  ${csrfField(request)}
  <button type="submit">Check the status now</button>
</form>
<p class="help">Asks the gateway for the payment’s status now, as the status checker does on its schedule; its answer is applied like the checker’s.</p>`;
}
