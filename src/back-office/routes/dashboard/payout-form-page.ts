import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getBalance } from '../../../ledger/index.ts';
import { createPayout, createPayoutValidator, getMerchant, newFormKey, oncePerFormKey } from '../../../payments/index.ts';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { ApiError, type ErrorItem } from '../../../platform/lib/errors.ts';
import { parseAmountInput } from '../../domain/amount-input.ts';
import { formFieldOfBodyPath, PAYOUT_FORM_FIELD_NAMES, payoutBodyOf, type PayoutFormValues } from '../../domain/payout-form.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { requireAction } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { payoutFormView, type PayoutFormProblem, type PayoutWallet } from './payout-form-view.ts';
import { payoutFormTexts as T } from './texts-payouts.ts';

const FALLBACK_CURRENCY = 'USD';

// GET/POST /dashboard/payouts/new: a payout to a card, a phone number (SBP) or a bank account, for the roles that
// may send one. The form is turned into the merchant API's body and checked by the API's validator, then sent by the
// API's flow (createPayout): the same reservation, gateway and answer rules. A refused form keeps what was typed,
// except the card number.
export async function payoutFormPage(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const { currencies } = app.payrail;
  const validatePayout = createPayoutValidator({ currencies });

  app.get('/payouts/new', async (request, reply) => {
    const viewer = requireAction(request, 'payout');
    const [wallets, merchant] = await Promise.all([walletsOf(viewer), getMerchant(db, viewer.merchantId)]);
    const values = blankValues();
    values.currency = wallets[0]?.currency ?? FALLBACK_CURRENCY;
    values.callbackUrl = merchant.defaultCallbackUrl ?? '';
    return formPage(request, reply, wallets, values, null, 200, newFormKey());
  });

  app.post('/payouts/new', async (request, reply) => {
    const viewer = requireAction(request, 'payout');
    const values = Object.fromEntries(PAYOUT_FORM_FIELD_NAMES.map((name) => [name, formText(request.body, name)])) as PayoutFormValues;
    try {
      assertMaySend(viewer);
      const exponent = currencyExponent(currencies, values.currency.trim().toUpperCase());
      const amount = exponent === undefined ? null : parseAmountInput(values.amount, exponent, values.currency.trim().toUpperCase());
      const validation = validatePayout(payoutBodyOf(values, amount?.ok ? amount.amountMinor : null));
      // The amount's own problem replaces the validator's (which only saw that there was none); an unknown currency
      // is the validator's to report, and the amount cannot be read without it.
      const amountItems: ErrorItem[] = amount && !amount.ok ? [{ code: 'invalid_field', field: 'amount', message: amount.message }] : [];
      const validatorItems = validation.ok ? [] : validation.errors.filter((item) => !(item.field === 'amount' && (amount === null || !amount.ok)));
      if (!validation.ok || amountItems.length > 0) {
        throw new ApiError('invalid_field', 422, 'the payout breaks the rules of spec 2.4', [...amountItems, ...validatorItems]);
      }
      const scope = { merchantId: viewer.merchantId, environment: viewer.environment };
      const outcome = await oncePerFormKey(db, scope, formText(request.body, 'formKey'), async (commitKey) => {
        const created = await createPayout(
          { context: app.payrail, adapterClient: app.payrail.adapterClient },
          { scope, request: validation.request, merchantKey: undefined, clientIp: request.ip, commitKey },
        );
        return { token: created.payout.token };
      });
      if ('done' in outcome) return reply.redirect(`/dashboard/payouts/${outcome.done.token}?sent=1`, 303);
      // The same form again: the first post's payout, not a second one.
      return reply.redirect(outcome.earlier ? `/dashboard/payouts/${outcome.earlier}` : '/dashboard/payouts', 303);
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      // Everything typed is shown again except the card number: its field comes back empty.
      // A refused form may be sent again as corrected: a new key (the refused one was released, but a fresh one is plain).
      return formPage(request, reply, await walletsOf(viewer), { ...values, pan: '' }, problemOf(error), error.statusCode, newFormKey());
    }
  });

  async function walletsOf(viewer: DashboardViewer): Promise<PayoutWallet[]> {
    const balance = await getBalance(db, currencies, { merchantId: viewer.merchantId, environment: viewer.environment }, null);
    const wallets = 'wallets' in balance ? balance.wallets : [balance.wallet];
    return wallets.map((wallet) => ({ currency: wallet.currency, available: wallet.available }));
  }

  function formPage(
    request: FastifyRequest,
    reply: FastifyReply,
    wallets: PayoutWallet[],
    values: PayoutFormValues,
    problem: PayoutFormProblem | null,
    status: number,
    formKey: string,
  ): FastifyReply {
    return memberPage(request, reply, {
      title: T.title,
      area: 'payouts',
      status,
      body: payoutFormView(request, currencies, wallets, values, problem, formKey),
    });
  }
}

// The API refuses a disabled merchant's key, and a merchant waiting for review has no production key to refuse.
function assertMaySend(viewer: DashboardViewer): void {
  if (!viewer.merchantActive) throw new ApiError('merchant_disabled', 403, 'this merchant is disabled by an operator: no payout can be sent');
  if (viewer.environment === 'production' && viewer.merchantReviewStatus !== 'approved') {
    throw new ApiError('merchant_not_approved', 403, 'live payouts start once an operator has approved your account; test mode works now');
  }
}

function blankValues(): PayoutFormValues {
  const values = Object.fromEntries(PAYOUT_FORM_FIELD_NAMES.map((name) => [name, ''])) as PayoutFormValues;
  values.kind = 'card';
  return values;
}

function problemOf(error: ApiError): PayoutFormProblem {
  const problem: PayoutFormProblem = { message: error.message, fields: {}, unplaced: [] };
  for (const item of error.items) {
    const field = formFieldOfBodyPath(item.field);
    if (field === null) {
      if (item.field !== undefined || item.message !== error.message) problem.unplaced.push(item.field ? `${item.field}: ${item.message}` : item.message);
      continue;
    }
    problem.fields[field] = [...(problem.fields[field] ?? []), item.message];
  }
  return problem;
}
