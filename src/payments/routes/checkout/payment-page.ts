import { CardSchema, CVV_PATTERN, PAN_PATTERN } from '../../contract/card-schema.ts';
import { CVV_DIGITS_MAX, type CardBrand } from '../../domain/card-brand.ts';
import { brandMessages, cardRulesOnPage } from './card-rules-data.ts';
import { earliestValidMonthIndex, FORM_EXPIRES_PATTERN } from '../../../platform/lib/card-checks.ts';
import { cardCheckText } from './card-check-texts.ts';
import { checkoutCsp } from './csp.ts';
import { formatAmount } from '../../../platform/lib/format-amount.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { ICONS, renderDocument, type PageResult } from './layout.ts';
import { checkoutText, type CheckoutLocale, type CheckoutText } from './locales.ts';
import { stateText } from './state-texts.ts';
import { isOneOf } from '../../../platform/lib/type-guards.ts';

const CARD_FIELDS = ['pan', 'expires', 'holder', 'cvv'] as const;
export type CardField = (typeof CARD_FIELDS)[number];
// format: the value's shape; check_digit: a card number whose digits do not add up (Luhn); expired: a past expiry;
// brand_length: a card number or security code of a length the card's brand does not use (domain/card-brand.ts).
export type CardFieldProblem = 'format' | 'check_digit' | 'expired' | 'brand_length';

interface PaymentPageFieldError {
  field: string; // a CardField shows next to its input; anything else shows in #form-errors
  message: string;
}

export interface PaymentPageInput {
  token: string;
  locale: CheckoutLocale;
  product: string;
  amountMinor: number | bigint;
  currency: string;
  exponent: number;
  actionUrl: string; // our own POST url
  errors?: readonly PaymentPageFieldError[];
  values?: { holder?: string; expires?: string }; // pan and cvv are never rendered back
  now?: Date; // the month an expiry must not be before, for the browser's check
  merchant?: string; // the merchant's display name: the page's heading and title
  testMode?: boolean | undefined; // a sandbox payment: the page shows the test-mode band
  collectCard?: boolean; // false: the gateway takes no card (payment_method bank_account or redirect), the form has no fields
}

// The browser checks what the server checks: the same patterns and lengths, read from CardSchema.
// TString does not type its options: they are read as unknown, and checked at load that they are there.
const { pan: panSchema, holder: holderSchema } = CardSchema.properties;
const PAN_LENGTH_MAX = requiredNumber(optionOf(panSchema, 'maxLength'), 'pan maxLength');
const HOLDER_LENGTH_MIN = requiredNumber(optionOf(holderSchema, 'minLength'), 'holder minLength');
const HOLDER_LENGTH_MAX = requiredNumber(optionOf(holderSchema, 'maxLength'), 'holder maxLength');
const HOLDER_PATTERN = String(optionOf(holderSchema, 'pattern') ?? '');
const EXPIRES_LENGTH_MAX = 'MM / YYYY'.length;
const CVV_LENGTH_MAX = CVV_DIGITS_MAX;

function optionOf(schema: object, option: string): unknown {
  return Object.entries(schema).find(([name]) => name === option)?.[1];
}

function requiredNumber(value: unknown, name: string): number {
  if (typeof value !== 'number') throw new Error(`CardSchema lost its ${name}`);
  return value;
}

function isCardField(field: string): field is CardField {
  return isOneOf(CARD_FIELDS, field);
}

// Only the localized message per field and problem; the route may pass these as server errors. brand: the one the
// card number names, for the messages that depend on it.
export function cardFieldMessage(locale: CheckoutLocale, field: CardField, problem: CardFieldProblem = 'format', brand: CardBrand | null = null): string {
  const text = checkoutText(locale);
  const checks = cardCheckText(locale);
  if (problem === 'check_digit' && field === 'pan') return checks.panCheckDigit;
  if (problem === 'expired' && field === 'expires') return checks.cardExpired;
  if (problem === 'brand_length' && brand !== null && (field === 'pan' || field === 'cvv')) {
    const messages = brandMessages(locale, brand);
    return field === 'pan' ? messages.panMessage : messages.cvvMessage;
  }
  const messages: Record<CardField, string> = {
    pan: text.panInvalid,
    expires: text.expiresInvalid,
    holder: text.holderInvalid,
    cvv: text.cvvInvalid,
  };
  return messages[field];
}

interface FieldView {
  field: CardField;
  label: string;
  error: string | undefined;
  autofocus: boolean;
  attributes: SafeHtml;
  hint?: string;
}

function renderField(view: FieldView): SafeHtml {
  const hintId = view.hint === undefined ? undefined : `${view.field}-hint`;
  const describedBy = [hintId, `${view.field}-error`].filter((id) => id !== undefined).join(' ');
  return html`<div class="field${view.error === undefined ? '' : ' field-invalid'}">
<label for="${view.field}">${view.label}</label>
<input id="${view.field}" name="${view.field}" type="text" required spellcheck="false" autocorrect="off" aria-describedby="${describedBy}"${view.error === undefined ? '' : html` aria-invalid="true"`}${view.autofocus ? html` autofocus` : ''} ${view.attributes}>${
    view.hint === undefined
      ? ''
      : html`
<p class="field-hint" id="${hintId}">${view.hint}</p>`
  }
<p class="field-error" id="${view.field}-error" data-error-for="${view.field}" aria-live="polite">${view.error ?? ''}</p>
</div>`;
}

// YYYY-MM: checkout.js refuses an expiry before it, as parseCardForm does.
function monthText(monthIndex: number): string {
  return `${Math.floor(monthIndex / 12)}-${String((monthIndex % 12) + 1).padStart(2, '0')}`;
}

function renderFields(input: PaymentPageInput, text: CheckoutText): SafeHtml {
  const checks = cardCheckText(input.locale);
  const validFrom = monthText(earliestValidMonthIndex(input.now ?? new Date()));
  const errorByField = new Map<string, string>();
  for (const error of input.errors ?? []) {
    if (isCardField(error.field) && !errorByField.has(error.field)) errorByField.set(error.field, error.message);
  }
  const firstInvalid = CARD_FIELDS.find((field) => errorByField.has(field));
  const view = (field: CardField, label: string, attributes: SafeHtml, hint?: string): FieldView => ({
    field,
    label,
    attributes,
    hint,
    error: errorByField.get(field),
    autofocus: field === firstInvalid,
  });
  const pan = view(
    'pan',
    text.cardNumberLabel,
    html`inputmode="numeric" autocomplete="cc-number" maxlength="${PAN_LENGTH_MAX}" data-pattern="${PAN_PATTERN}" data-message="${text.panInvalid}" data-check="check-digit" data-check-message="${checks.panCheckDigit}" data-card-rules="${cardRulesOnPage(input.locale)}"`,
  );
  const expires = view(
    'expires',
    text.expiresLabel,
    html`inputmode="numeric" autocomplete="cc-exp" maxlength="${EXPIRES_LENGTH_MAX}" placeholder="${text.expiresPlaceholder}" value="${input.values?.expires ?? ''}" data-pattern="${FORM_EXPIRES_PATTERN}" data-message="${text.expiresInvalid}" data-check="expiry" data-valid-from="${validFrom}" data-check-message="${checks.cardExpired}"`,
  );
  const cvv = view(
    'cvv',
    text.cvvLabel,
    html`inputmode="numeric" autocomplete="cc-csc" maxlength="${CVV_LENGTH_MAX}" data-pattern="${CVV_PATTERN}" data-message="${text.cvvInvalid}" data-check="cvv-length"`,
    text.cvvHint,
  );
  const holder = view(
    'holder',
    text.holderLabel,
    html`autocomplete="cc-name" autocapitalize="characters" maxlength="${HOLDER_LENGTH_MAX}" value="${input.values?.holder ?? ''}" data-pattern="${HOLDER_PATTERN}" data-min-length="${HOLDER_LENGTH_MIN}" data-max-length="${HOLDER_LENGTH_MAX}" data-message="${text.holderInvalid}"`,
  );
  // The brand checkout.js recognises in the number as it is typed (aria-live: said once it changes).
  return html`${renderField(pan)}
<p id="card-brand" class="card-brand" aria-live="polite" hidden></p>
<div class="field-row">
${renderField(expires)}
${renderField(cvv)}
</div>
${renderField(holder)}`;
}

function renderFormErrors(input: PaymentPageInput, text: CheckoutText): SafeHtml {
  const errors = input.errors ?? [];
  const formLevel = errors.filter((error) => !isCardField(error.field));
  const summary = errors.length === 0 ? '' : html`<p>${text.formErrorSummary}</p>`;
  const items = formLevel.length === 0 ? '' : html`<ul>${formLevel.map((error) => html`<li>${error.message}</li>`)}</ul>`;
  return html`<div id="form-errors" class="form-errors" role="alert" data-message="${text.formErrorSummary}">${summary}${items}</div>`;
}

export function renderPaymentPage(input: PaymentPageInput): PageResult {
  const text = checkoutText(input.locale);
  const amountText = formatAmount(input.amountMinor, input.currency, input.exponent, input.locale);
  const collectCard = input.collectCard ?? true;
  const main = html`<h1 id="page-heading" class="page-heading">${input.merchant === undefined ? text.pageTitle : stateText(input.locale).payMerchant(input.merchant)}</h1>
<section class="summary" aria-label="${text.productLabel}">
<p class="summary-product"><span class="summary-label">${text.productLabel}</span> <span id="product">${input.product}</span></p>
<p class="summary-amount"><span class="summary-label">${text.amountLabel}</span> <strong id="amount">${amountText}</strong></p>
</section>
<form id="${collectCard ? 'card-form' : 'payment-form'}" class="card-form" method="post" action="${input.actionUrl}" novalidate data-payment-token="${input.token}">
${renderFormErrors(input, text)}
${collectCard ? renderFields(input, text) : ''}
<button id="pay" class="button button-primary" type="submit" data-busy-text="${text.payBusy}" data-slow-text="${stateText(input.locale).slowWait}">${text.payButton(amountText)}</button>
</form>
<p class="secure-note">${ICONS.lock}<span>${text.secureNote}</span></p>`;
  return {
    html: renderDocument({ locale: input.locale, title: `${text.pageTitle} · ${amountText}`, main, merchant: input.merchant, testMode: input.testMode }),
    csp: checkoutCsp(),
  };
}
