import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkoutUrl, createPaymentOfRequest, getMerchant, type CreatePaymentRequest } from '../../../payments/index.ts';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../platform/lib/sandbox-test-cards.ts';
import { parseAmountInput } from '../../domain/amount-input.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { amountText } from '../../pages/amount-text.ts';
import { scenarioLabel } from './developers-docs.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';
import { developerTexts as T } from './texts-developers.ts';

type Scenario = keyof typeof SANDBOX_TEST_CARD_NUMBERS;
type ConsoleForm = { scenario: string; amount: string; currency: string; flow: string };

// The pay cards only: a payout card is for payouts, which the console does not make.
const PAY_SCENARIOS = (Object.keys(SANDBOX_TEST_CARD_NUMBERS) as Scenario[]).filter((scenario) => !scenario.startsWith('payout_'));
const DEFAULT_FORM: ConsoleForm = { scenario: 'approved', amount: '10.00', currency: 'USD', flow: 'checkout' };

// The sandbox console: a test payment made by the merchant API's own create flow (payments/flows/payment-creation.ts
// createPaymentOfRequest, as POST /api/v1/payments calls it), through the hosted checkout or Host-to-Host with a test
// card. Test mode only, for the roles with developer settings.
export async function sandboxConsolePages(app: FastifyInstance): Promise<void> {
  const currencies = app.payrail.currencies;

  const showForm = (request: FastifyRequest, reply: FastifyReply, form: ConsoleForm, notice?: SafeHtml, status = 200) =>
    memberPage(request, reply, { title: T.consoleHeading, area: 'developers', body: consoleForm(request, form, notice), status });

  app.get('/developers/console', async (request, reply) => {
    sandboxViewer(request);
    return showForm(request, reply, DEFAULT_FORM);
  });

  app.post('/developers/console', async (request, reply) => {
    const viewer = sandboxViewer(request);
    if (!viewer.merchantActive) throw new ApiError('merchant_disabled', 403, 'this merchant is disabled');
    const form: ConsoleForm = {
      scenario: formText(request.body, 'scenario'),
      amount: formText(request.body, 'amount'),
      currency: formText(request.body, 'currency').trim().toUpperCase(),
      flow: formText(request.body, 'flow') === 'h2h' ? 'h2h' : 'checkout',
    };
    try {
      const paymentRequest = consoleRequest(currencies, form);
      const merchant = await getMerchant(app.payrail.database.db, viewer.merchantId);
      const created = await createPaymentOfRequest(
        { context: app.payrail, adapterClient: app.payrail.adapterClient },
        {
          scope: { merchantId: viewer.merchantId, environment: viewer.environment },
          request: paymentRequest,
          merchantKey: undefined,
          clientIp: request.ip,
          commitKey: null,
          // the merchant's defaults (Settings): its callbackUrl hears of the console's payments too
          paymentDefaults: {
            callbackUrl: merchant.defaultCallbackUrl,
            redirectSuccessUrl: merchant.defaultSuccessUrl,
            redirectFailUrl: merchant.defaultFailUrl,
          },
        },
      );
      const { payment } = created;
      request.log.info({ merchantId: viewer.merchantId, memberId: viewer.memberId, token: payment.token }, 'sandbox console payment created');
      const processingUrl = checkoutUrl(created.publicUrl, payment);
      const body = html`<p class="ok" role="status">Test payment created: ${amountText(currencies, payment.amountMinor, payment.currency)}, status <strong>${payment.status}</strong>.</p>
<dl class="facts">
  <dt>Token</dt><dd><code>${payment.token}</code></dd>
  <dt>Card</dt><dd>${form.flow === 'h2h' ? `${scenarioLabel(form.scenario)} (Host-to-Host)` : 'chosen on the checkout page'}</dd>
</dl>
<ul>
  ${form.flow === 'checkout' ? html`<li><a href="${processingUrl}">Open its checkout page</a> and pay with <code>${SANDBOX_TEST_CARD_NUMBERS[form.scenario as Scenario]}</code></li>` : ''}
  <li><a href="/dashboard/payments/${payment.token}">See its timeline</a></li>
  <li><a href="/dashboard/developers/console">Make another</a></li>
</ul>`;
      return memberPage(request, reply, { title: 'Test payment created', area: 'developers', body });
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 403 || error.statusCode === 404) throw error;
      return showForm(request, reply, form, problemOf(error), error.statusCode);
    }
  });
}

function sandboxViewer(request: FastifyRequest): DashboardViewer {
  const viewer = requireAction(request, 'developer_settings');
  if (viewer.environment !== 'sandbox') throw new ApiError('sandbox_only', 409, T.consoleLiveOnly);
  return viewer;
}

// The create request the console sends: variant A's fields as the API's validator would have normalized them.
function consoleRequest(currencies: ReadonlyMap<string, number>, form: ConsoleForm): CreatePaymentRequest {
  if (!(PAY_SCENARIOS as string[]).includes(form.scenario)) throw fieldError('scenario', 'choose one of the test cards');
  const exponent = /^[A-Z]{3,4}$/.test(form.currency) ? currencyExponent(currencies, form.currency) : undefined;
  if (exponent === undefined) throw fieldError('currency', 'is not an ISO 4217 code or a configured currency');
  const amount = parseAmountInput(form.amount, exponent, form.currency);
  if (!amount.ok) throw fieldError('amount', amount.message);
  const h2h = form.flow === 'h2h';
  const nextYears = new Date().getUTCFullYear() + 2;
  return {
    variant: 'A',
    product: 'Sandbox console test payment',
    amountMinor: amount.amountMinor,
    currency: form.currency,
    callbackUrl: null,
    redirectSuccessUrl: null,
    redirectFailUrl: null,
    pendingUrl: null,
    extraReturnParam: null,
    orderNumber: null,
    locale: 'en',
    expiresInMinutes: null,
    recurring: false,
    recurringToken: null,
    walletToken: null,
    needConfirmation: false,
    merchantUrl: null,
    card: h2h
      ? {
          panDigits: SANDBOX_TEST_CARD_NUMBERS[form.scenario as Scenario].replaceAll(' ', ''),
          expiryMonth: 12,
          expiryYear: nextYears,
          holder: 'TEST CUSTOMER',
          cvv: '123',
        }
      : null,
    customer: h2h ? { ...NO_CUSTOMER_DETAILS, email: 'test-customer@example.com' } : null,
    recurringData: null,
    bankAccount: null,
  };
}

const NO_CUSTOMER_DETAILS = {
  firstName: null,
  lastName: null,
  address: null,
  country: null,
  city: null,
  region: null,
  postcode: null,
  phone: null,
  ip: null,
  browser: null,
};

const fieldError = (field: string, message: string) =>
  new ApiError('invalid_field', 422, 'the test payment could not be made', [{ code: 'invalid_field', field, message }]);

function consoleForm(request: FastifyRequest, form: ConsoleForm, notice?: SafeHtml): SafeHtml {
  const options = PAY_SCENARIOS.map(
    (scenario) =>
      html`<option value="${scenario}"${scenario === form.scenario ? html` selected` : ''}>${SANDBOX_TEST_CARD_NUMBERS[scenario]} · ${scenarioLabel(scenario)}</option>`,
  );
  const flow = (value: string, label: string) =>
    html`<label class="choice"><input type="radio" name="flow" value="${value}"${form.flow === value ? html` checked` : ''}> ${label}</label>`;
  return html`${notice ?? ''}
<p>${T.consoleIntro} Payments made here are ordinary sandbox payments of your test mode: they show in Payments and Balance.</p>
<form method="post" action="/dashboard/developers/console" class="stack">
  ${csrfField(request)}
  <label for="console-card">Test card</label>
  <select id="console-card" name="scenario">${options}</select>
  <label for="console-amount">Amount</label>
  <input id="console-amount" name="amount" inputmode="decimal" autocomplete="off" required value="${form.amount}">
  <label for="console-currency">Currency</label>
  <input id="console-currency" name="currency" required maxlength="4" autocapitalize="characters" value="${form.currency}">
  <fieldset>
    <legend>How to pay</legend>
    ${flow('checkout', 'Open the hosted checkout and type the card there')}
    ${flow('h2h', 'Host-to-Host: send the card with the request')}
  </fieldset>
  <button type="submit">Create the test payment</button>
</form>
<p><a href="/dashboard/developers#test-cards">What each test card does</a></p>`;
}
