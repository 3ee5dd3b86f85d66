import type { NextStepRequest, StepField } from '../../domain/adapter-step.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { checkoutCsp } from './csp.ts';
import { ICONS, renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale } from './locales.ts';
import { stepText, type StepNotice, type StepText } from './step-texts.ts';

export const NEXT_STEP_PROBLEMS = ['unknown', 'required', 'too_long', 'invalid'] as const;

export interface NextStepFieldError {
  field: string;
  problem: (typeof NEXT_STEP_PROBLEMS)[number];
}

export interface NextStepPageInput {
  locale: CheckoutLocale;
  product: string;
  amountText: string;
  request: NextStepRequest;
  notice: StepNotice | null;
  actionUrl: string; // our POST url
  values?: Readonly<Record<string, string>>; // what the customer typed, shown again with the errors
  errors?: readonly NextStepFieldError[];
  merchant?: string; // the merchant's display name, in the title and header
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
}

const INPUT_TYPES: Readonly<Record<Exclude<StepField['type'], 'select'>, string>> = { text: 'text', tel: 'tel', email: 'email' };
const AUTOCOMPLETE: Readonly<Record<Exclude<StepField['type'], 'select'>, string>> = { text: 'off', tel: 'tel', email: 'email' };

// The data an adapter asked for (next_step): its fields as a form posting to us. Checked again on the server
// against the adapter's list; labels, options and the message are the adapter's words, shown as text.
export function renderNextStepPage(input: NextStepPageInput): PageResult {
  const text = checkoutText(input.locale);
  const steps = stepText(input.locale);
  const firstInvalid = input.errors?.[0]?.field;
  const fields = input.request.fields.map((field) =>
    renderStepField(
      field,
      steps,
      input.values?.[field.name] ?? '',
      input.errors?.find((error) => error.field === field.name),
      field.name === firstInvalid,
    ),
  );
  const notice =
    input.notice === null ? '' : html`<p id="step-notice" class="form-errors" role="alert" data-notice="${input.notice}">${steps.notices[input.notice]}</p>`;
  const main = html`<section class="status-panel step" data-step="next_step">
<h1>${steps.nextStepTitle}</h1>
<p id="step-message" class="result-message">${input.request.message ?? steps.nextStepMessage}</p>
<dl class="summary summary-list">
<div class="summary-line"><dt>${text.productLabel}</dt><dd id="product">${input.product}</dd></div>
<div class="summary-line"><dt>${text.amountLabel}</dt><dd id="amount">${input.amountText}</dd></div>
</dl>
${notice}
<form id="step-form" class="card-form" method="post" action="${input.actionUrl}" novalidate>
${fields}
<button id="step-submit" class="button button-primary" type="submit">${steps.continueButton}</button>
</form>
</section>
<p class="secure-note">${ICONS.lock}<span>${text.secureCheckout}</span></p>`;
  return {
    html: renderDocument({ locale: input.locale, title: steps.nextStepTitle, main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}

function renderStepField(field: StepField, steps: StepText, value: string, error: NextStepFieldError | undefined, autofocus: boolean): SafeHtml {
  const id = `field-${field.name}`;
  const message = error === undefined ? '' : errorMessage(error, field, steps);
  const common = html`id="${id}" name="${field.name}" aria-describedby="${id}-error"${field.required ? html` required` : ''}${error === undefined ? '' : html` aria-invalid="true"`}${autofocus ? html` autofocus` : ''}`;
  const control =
    field.type === 'select'
      ? html`<select ${common}>
<option value="">${steps.chooseOption}</option>
${(field.options ?? []).map((option) => html`<option value="${option.value}"${option.value === value ? html` selected` : ''}>${option.label}</option>`)}
</select>`
      : html`<input ${common} type="${INPUT_TYPES[field.type]}" autocomplete="${AUTOCOMPLETE[field.type]}" maxlength="${field.maxLength}" spellcheck="false" value="${value}">`;
  return html`<div class="field${error === undefined ? '' : ' field-invalid'}" data-field="${field.name}">
<label for="${id}">${field.label}</label>
${control}
<p class="field-error" id="${id}-error" data-error-for="${id}" aria-live="polite">${message}</p>
</div>`;
}

function errorMessage(error: NextStepFieldError, field: StepField, steps: StepText): string {
  if (error.problem === 'required') return steps.fieldRequired;
  if (error.problem === 'too_long') return steps.fieldTooLong(field.maxLength);
  return steps.fieldInvalid;
}
