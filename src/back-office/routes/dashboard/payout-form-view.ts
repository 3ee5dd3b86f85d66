import type { FastifyRequest } from 'fastify';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { PAYOUT_KINDS, payoutKindOf, type PayoutFormField, type PayoutFormValues, type PayoutKind } from '../../domain/payout-form.ts';
import { amountText } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { payoutFormTexts as T, payoutTexts } from './texts-payouts.ts';

export interface PayoutWallet {
  currency: string;
  available: number;
}

// A refusal as the form shows it: the message, and each field's problem beside its input and, linked, in the summary.
export interface PayoutFormProblem {
  message: string;
  fields: Partial<Record<PayoutFormField, string[]>>;
  unplaced: string[]; // problems naming no field of the form
}

const KIND_LABELS: Readonly<Record<PayoutKind, string>> = { card: payoutTexts.kindCard, sbp: payoutTexts.kindSbp, account: payoutTexts.kindAccount };

const FIELD_LABELS: Readonly<Record<PayoutFormField, string>> = {
  kind: T.kindLegend,
  amount: T.amount,
  currency: T.currency,
  pan: T.pan,
  bankName: T.bankName,
  accountNumber: T.accountNumber,
  email: T.email,
  phone: T.phone,
  firstName: T.firstName,
  lastName: T.lastName,
  middleName: T.middleName,
  orderNumber: T.orderNumber,
  callbackUrl: T.callbackUrl,
};

const inputId = (field: PayoutFormField) => (field === 'kind' ? 'payout-kind-card' : `payout-${field}`);

export function payoutFormView(
  request: FastifyRequest,
  currencies: CurrencyTable,
  wallets: readonly PayoutWallet[],
  values: PayoutFormValues,
  problem: PayoutFormProblem | null,
  formKey: string, // sent with the form: a second post of the same form sends nothing (flows/once-per-form.ts)
): SafeHtml {
  const field = (name: PayoutFormField, attributes: SafeHtml, hint?: string) => {
    const errors = problem?.fields[name] ?? [];
    const described = [hint ? `${inputId(name)}-hint` : '', errors.length > 0 ? `${inputId(name)}-error` : ''].filter(Boolean).join(' ');
    return html`<label for="${inputId(name)}">${FIELD_LABELS[name]}</label>
${hint ? html`<small id="${inputId(name)}-hint">${hint}</small>` : ''}
${errors.length > 0 ? html`<span class="field-error" id="${inputId(name)}-error">${errors.join('; ')}</span>` : ''}
<input id="${inputId(name)}" name="${name}" value="${values[name]}"${described ? html` aria-describedby="${described}"` : ''}${
      errors.length > 0 ? html` aria-invalid="true"` : ''
    } ${attributes}>`;
  };
  const kind = payoutKindOf(values.kind);
  const kindErrors = problem?.fields.kind ?? [];
  return html`${problem ? summary(problem) : ''}
<p>${T.intro}</p>
${balances(currencies, wallets)}
<form method="post" action="/dashboard/payouts/new" class="stack payout" novalidate>
${csrfField(request)}<input type="hidden" name="formKey" value="${formKey}">
<fieldset class="kinds"${kindErrors.length > 0 ? html` aria-describedby="payout-kind-error"` : ''}>
  <legend>${T.kindLegend}</legend>
  ${kindErrors.length > 0 ? html`<span class="field-error" id="payout-kind-error">${kindErrors.join('; ')}</span>` : ''}
  ${PAYOUT_KINDS.map(
    (option) =>
      html`<label class="choice"><input type="radio" name="kind" id="payout-kind-${option}" value="${option}"${option === kind ? html` checked` : ''}> ${KIND_LABELS[option]}</label>`,
  )}
</fieldset>
${field('amount', html`inputmode="decimal" autocomplete="off" required`, T.amountHint)}
${field('currency', html`list="payout-currencies" maxlength="4" autocapitalize="characters" autocomplete="off" required`, T.currencyHint)}
<datalist id="payout-currencies">${wallets.map((wallet) => html`<option value="${wallet.currency}">`)}</datalist>
<div class="requisite for-card">${field('pan', html`inputmode="numeric" autocomplete="off" maxlength="32" spellcheck="false"`, T.panHint)}</div>
<div class="requisite for-sbp for-account">${field('bankName', html`maxlength="255" autocomplete="off"`, T.bankNameHint)}</div>
<div class="requisite for-account">${field('accountNumber', html`maxlength="64" autocomplete="off" spellcheck="false"`)}</div>
<fieldset>
  <legend>${T.recipientLegend}</legend>
  ${field('email', html`type="email" maxlength="254" autocomplete="off" required`)}
  ${field('phone', html`type="tel" maxlength="20" autocomplete="off"`, T.phoneHint)}
  ${field('firstName', html`maxlength="100" autocomplete="off"`)}
  ${field('lastName', html`maxlength="100" autocomplete="off"`)}
  ${field('middleName', html`maxlength="100" autocomplete="off"`)}
</fieldset>
<fieldset>
  <legend>${T.referenceLegend}</legend>
  ${field('orderNumber', html`maxlength="255" autocomplete="off" required`, T.orderNumberHint)}
  ${field('callbackUrl', html`type="url" maxlength="2048" autocomplete="off" required`, T.callbackUrlHint)}
</fieldset>
<button type="submit" data-confirm="${T.confirm}">${T.submit}</button>
</form>
<p><a href="/dashboard/payouts">${T.cancel}</a></p>`;
}

function summary(problem: PayoutFormProblem): SafeHtml {
  const items = Object.entries(problem.fields).flatMap(([name, messages]) =>
    (messages ?? []).map((message) => html`<li><a href="#${inputId(name as PayoutFormField)}">${FIELD_LABELS[name as PayoutFormField]}</a>: ${message}</li>`),
  );
  const unplaced = problem.unplaced.map((message) => html`<li>${message}</li>`);
  return html`<div class="error" role="alert" tabindex="-1" id="payout-problem">
<p><strong>${T.problemTitle}:</strong> ${problem.message}</p>
${items.length + unplaced.length > 0 ? html`<ul>${items}${unplaced}</ul>` : ''}
</div>`;
}

function balances(currencies: CurrencyTable, wallets: readonly PayoutWallet[]): SafeHtml {
  if (wallets.length === 0) return html`<h2>${T.balanceHeading}</h2><p class="empty">${T.noBalance}</p>`;
  return html`<h2>${T.balanceHeading}</h2>
<div class="cards">${wallets.map(
    (wallet) =>
      html`<div class="card"><span>${wallet.currency}</span><div class="figure">${amountText(currencies, wallet.available, wallet.currency)}</div></div>`,
  )}</div>`;
}
