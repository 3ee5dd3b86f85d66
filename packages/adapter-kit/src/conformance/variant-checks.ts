import { checkAmount, isJsonObject, reasonOf, skip } from './answer-checks.ts';
import { answerChecks } from './method-checks.ts';
import { AMOUNT_VARIANTS, CONFORMANCE_DEFAULTS } from './options.ts';
import { bankAccountPayBody, payBody, statusBody } from './request-bodies.ts';
import { stringOrUndefined, type Suite } from './suite.ts';

// What one amount and currency cannot show: a currency without decimals (JPY), one with three (KWD), and cents;
// and the requests Payrail really sends beside the card payment: no card data, and variant C's bank_account.

// Each amount paid with the approving card, then asked about: the amounts answered are the ones sent.
export async function amountChecks(suite: Suite): Promise<void> {
  const pan = suite.options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove;
  for (const variant of AMOUNT_VARIANTS) {
    const sent = { amountMinor: variant.amountMinor, currency: variant.currency ?? suite.context.currency };
    const context = { ...suite.context, ...sent };
    const name = `amount/${sent.currency}-${variant.shown}`;
    const body = payBody(context, pan);
    const paid = await suite.call(`${name}/pay`, 'pay', body);
    if (!isJsonObject(paid.json) || paid.json['result'] !== true) {
      const why = isJsonObject(paid.json) ? (reasonOf(paid.json) ?? 'result false') : `no JSON answer (HTTP ${paid.statusCode ?? 'none'})`;
      suite.checks.push(skip(`${name}/pay`, `${sent.amountMinor} ${sent.currency} was not taken ("${why}"): the provider may not offer it`));
      continue;
    }
    suite.checks.push(checkAmount(`${name}/pay`, paid, sent, false));
    if (!suite.methods.has('status')) continue;
    const gatewayToken = stringOrUndefined(paid.json['gateway_token']);
    const status = await suite.call(`${name}/status`, 'status', statusBody(context, body.payment.token, gatewayToken));
    suite.checks.push(checkAmount(`${name}/status`, status, sent, true));
  }
}

// Refusing what the adapter does not serve is fine (result false with an error); crashing on it is not.
export async function payrailShapeChecks(suite: Suite): Promise<void> {
  const withoutCard = await suite.call('pay-without-card', 'pay', payBody(suite.context, null));
  answerChecks(suite, 'pay-without-card', withoutCard, { finalFields: true });
  const bankAccount = await suite.call('pay-bank-account', 'pay', bankAccountPayBody(suite.context));
  answerChecks(suite, 'pay-bank-account', bankAccount, { finalFields: true });
}
