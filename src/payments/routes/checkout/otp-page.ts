import type { SecureCodeRequest } from '../../domain/adapter-step.ts';
import { html } from '../../../platform/lib/html.ts';
import { checkoutCsp } from './csp.ts';
import { ICONS, renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale } from './locales.ts';
import { stepText, type StepNotice } from './step-texts.ts';

const CODE_CHARS_MAX = 16;

export interface OtpPageInput {
  locale: CheckoutLocale;
  product: string;
  amountText: string;
  request: SecureCodeRequest;
  attemptsLeft: number; // codes still forwarded
  resendWaitS: number | null; // 0: now; null: no resend offered
  notice: StepNotice | null;
  codeUrl: string; // our POST url of the code form
  resendUrl: string; // our POST url of "send again"
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
}

// The secure code an adapter asked for (secure_code_request): one code input posting to us, and "send again"
// when the provider allows it. The adapter's message is shown as text; its words never become markup.
export function renderOtpPage(input: OtpPageInput): PageResult {
  const text = checkoutText(input.locale);
  const steps = stepText(input.locale);
  const { request } = input;
  const maxLength = request.length ?? CODE_CHARS_MAX;
  const notice =
    input.notice === null ? '' : html`<p id="step-notice" class="form-errors" role="alert" data-notice="${input.notice}">${steps.notices[input.notice]}</p>`;
  const resend =
    input.resendWaitS === null
      ? ''
      : html`<form id="resend-form" method="post" action="${input.resendUrl}">
<button id="resend" class="button button-secondary" type="submit"${input.resendWaitS > 0 ? html` disabled` : ''}>${steps.resendButton}</button>
${input.resendWaitS > 0 ? html`<p class="field-hint" id="resend-wait">${steps.resendIn(input.resendWaitS)}</p>` : ''}
</form>`;
  // After an answer the notice says what happened (code refused, code sent again); the provider's own message of
  // that answer says the same in its words, so the page says it once and shows what the code is for instead.
  const stepMessage =
    input.notice === null || request.message === null ? (request.message ?? steps.codeMessage[request.kind]) : steps.codeMessage[request.kind];
  const main = html`<section class="status-panel step" data-step="secure_code">
<h1>${steps.codeTitle}</h1>
<p id="step-message" class="result-message">${stepMessage}</p>
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.productLabel}</dt><dd id="product">${input.product}</dd></div>
<div class="summary-line"><dt>${text.amountLabel}</dt><dd id="amount">${input.amountText}</dd></div>
</dl>
${notice}
<form id="code-form" class="card-form" method="post" action="${input.codeUrl}" novalidate>
<div class="field">
<label for="code">${steps.codeLabel}</label>
<input id="code" name="code" type="text" required autofocus autocomplete="one-time-code" inputmode="${request.length === null ? 'text' : 'numeric'}" spellcheck="false" autocorrect="off" maxlength="${maxLength}" aria-describedby="code-hint">
<p class="field-hint" id="code-hint">${steps.codeHint(request.length)} · <span id="attempts-left">${steps.attemptsLeft(input.attemptsLeft)}</span></p>
</div>
<button id="confirm-code" class="button button-primary" type="submit">${steps.confirmCode}</button>
</form>
${resend}
</section>
<p class="secure-note">${ICONS.lock}<span>${text.secureCheckout}</span></p>`;
  return {
    html: renderDocument({ locale: input.locale, title: steps.codeTitle, main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}
