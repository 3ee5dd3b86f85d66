import type { FastifyRequest } from 'fastify';
import type { PaymentRow } from '../../../payments/index.ts';
import { currencyExponent, type CurrencyTable } from '../../../platform/lib/currencies.ts';
import { decimalTextOf } from '../../domain/amount-input.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { paymentTexts as T } from './texts-payments.ts';

export type PaymentAction = 'refund' | 'capture' | 'void' | 'cancel';
export const PAYMENT_ACTIONS: readonly PaymentAction[] = ['refund', 'capture', 'void', 'cancel'];

const C = T.confirm;
const WORDING: Readonly<Record<PaymentAction, { title: string; intro: string; button: string; danger: boolean }>> = {
  refund: { title: C.refundTitle, intro: C.refundIntro, button: C.refundButton, danger: true },
  capture: { title: C.captureTitle, intro: C.captureIntro, button: C.captureButton, danger: false },
  void: { title: C.voidTitle, intro: C.voidIntro, button: C.voidButton, danger: true },
  cancel: { title: C.cancelTitle, intro: C.cancelIntro, button: C.cancelButton, danger: true },
};

export function actionTitle(action: PaymentAction): string {
  return WORDING[action].title;
}

// The confirmation step of an action: the payment, what the action does, its amount field when it takes one, and
// the button that sends it (the page's problem, when the flow refused it, above).
export function confirmActionView(
  request: FastifyRequest,
  currencies: CurrencyTable,
  action: PaymentAction,
  subject: { payment: PaymentRow; refundableMinor: number },
  problem: SafeHtml | '',
  amountTyped: string | null,
): SafeHtml {
  const { payment, refundableMinor } = subject;
  // the whole amount the action would take, as its field starts; a refused form shows what was typed
  const exponent = currencyExponent(currencies, payment.currency);
  const wholeMinor = action === 'refund' ? refundableMinor : payment.amountMinor;
  const amountShown = amountTyped ?? (exponent === undefined || wholeMinor === 0 ? '' : decimalTextOf(wholeMinor, exponent));
  const wording = WORDING[action];
  const money = (minor: number) => amountText(currencies, minor, payment.currency);
  const amountField =
    action === 'refund' || action === 'capture'
      ? html`<label for="action-amount">${action === 'refund' ? C.refundAmount(payment.currency) : C.captureAmount(payment.currency)}</label>
  <input id="action-amount" name="amount" type="text" inputmode="decimal" autocomplete="off" value="${amountShown}" aria-describedby="action-amount-help">
  <p id="action-amount-help" class="help">${
    action === 'refund' ? html`${T.refundable}: ${money(refundableMinor)}` : html`${C.amountOf}: ${money(payment.amountMinor)}`
  }</p>`
      : '';
  const seen = action === 'refund' ? html`<input type="hidden" name="refundedSeen" value="${String(payment.refundedMinor)}">` : '';
  return html`${problem}
<dl class="facts">
  <dt>${T.columnToken}</dt><dd><code>${payment.token}</code></dd>
  <dt>${T.columnStatus}</dt><dd>${statusBadge(payment.status)}</dd>
  <dt>${C.amountOf}</dt><dd>${money(payment.amountMinor)}</dd>
  ${payment.capturedMinor === null ? '' : html`<dt>${T.captured}</dt><dd>${money(payment.capturedMinor)}</dd>`}
  ${payment.refundedMinor === 0 ? '' : html`<dt>${T.refunded}</dt><dd>${money(payment.refundedMinor)}</dd>`}
</dl>
<p>${wording.intro}</p>
<form method="post" action="/dashboard/payments/${payment.token}/${action}" class="stack" data-once>
  ${csrfField(request)}
  ${seen}
  ${amountField}
  <button type="submit"${wording.danger ? html` class="danger"` : ''}>${wording.button}</button>
</form>
<p><a href="/dashboard/payments/${payment.token}">${C.back}</a></p>`;
}
