import type { Dispatcher } from 'undici';
import type { AdapterAnswer, AdapterRequestContext, PayoutRequest, PayRequest, RefundRequest, StatusRequest } from '@payrail/adapter-kit';
import { callAcme, type AcmeCall, type AcmeCallResult, type AcmeTransport } from './acme-client.ts';
import { acmeSettingsOf, type AcmeSettings } from './acme-settings.ts';
import { acmeChecks, type AcmeCharge } from './acme-types.ts';
import { answerOf, notSent, outcomeUnknown, providerTimeoutMsOf } from './answers.ts';
import { chargeAnswerOf, chargeBodyOf, payoutAnswerOf, payoutBodyOf, payrailCurrencyOf, refundAnswerOf, refundBodyOf, type Links } from './mapping.ts';
import { acmeDispatcherOf } from './provider-agents.ts';
import type { Sealer } from './sealed-context.ts';

// The four adapter methods (section 4), each: read the settings, map the request, call Acme, map the answer.

export interface HandlerDeps {
  sealer: Sealer;
  webhookUrl: () => string; // this adapter's webhook endpoint, given to Acme with each charge and payout
  acmeDispatcher?: Dispatcher;
}

type Call = <Resource>(call: AcmeCall<Resource>) => Promise<AcmeCallResult<Resource>>;

// The settings of this call and a caller bound to them, or the answer explaining why there is none.
function prepare(deps: HandlerDeps, context: AdapterRequestContext): { settings: AcmeSettings; call: Call } | { answer: AdapterAnswer } {
  const settings = acmeSettingsOf(context.settings);
  if ('problem' in settings) return { answer: notSent(settings.problem) };
  const route = acmeDispatcherOf(context.settings, deps.acmeDispatcher);
  if ('problem' in route) return { answer: notSent(route.problem) };
  const transport: AcmeTransport = {
    timeoutMs: providerTimeoutMsOf(context.settings, context.method),
    signal: context.signal,
    ...(route.dispatcher === undefined ? {} : { dispatcher: route.dispatcher }),
  };
  return { settings, call: (call) => callAcme(settings, call, transport) };
}

const encode = encodeURIComponent;

export function payHandler(deps: HandlerDeps) {
  return async (request: PayRequest, context: AdapterRequestContext): Promise<AdapterAnswer> => {
    const prepared = prepare(deps, context);
    if ('answer' in prepared) return prepared.answer;
    const links: Links = {
      webhookUrl: deps.webhookUrl(),
      sealedContext: deps.sealer.seal({
        callbackUrl: request.callback_url,
        signKey: prepared.settings.signKey,
        merchantPrivateKey: request.payment.merchant_private_key,
        webhookSecret: prepared.settings.webhookSecret,
      }),
    };
    const mapped = chargeBodyOf(request, links);
    if ('refusal' in mapped) return notSent(mapped.refusal);
    const created = await prepared.call({
      method: 'POST',
      path: '/v2/charges',
      body: mapped.body,
      idempotencyKey: `pay:${request.payment.token}`,
      logKind: 'pay',
      check: acmeChecks.charge,
    });
    return answerOf(created, chargeAnswerOf);
  };
}

export function payoutHandler(deps: HandlerDeps) {
  return async (request: PayoutRequest, context: AdapterRequestContext): Promise<AdapterAnswer> => {
    const prepared = prepare(deps, context);
    if ('answer' in prepared) return prepared.answer;
    const { callback_url: callbackUrl } = request;
    const merchantPrivateKey = request.payment.merchant_private_key;
    // Without a callback_url or the merchant key no callback can be sent: the payout is then settled by /status.
    const links: Links | null =
      callbackUrl === undefined || merchantPrivateKey === undefined
        ? null
        : {
            webhookUrl: deps.webhookUrl(),
            sealedContext: deps.sealer.seal({
              callbackUrl,
              signKey: prepared.settings.signKey,
              merchantPrivateKey,
              webhookSecret: prepared.settings.webhookSecret,
            }),
          };
    const mapped = payoutBodyOf(request, links);
    if ('refusal' in mapped) return notSent(mapped.refusal);
    const created = await prepared.call({
      method: 'POST',
      path: '/v2/payouts',
      body: mapped.body,
      idempotencyKey: `payout:${request.payment.token}`,
      logKind: 'payout',
      check: acmeChecks.payout,
    });
    return answerOf(created, payoutAnswerOf);
  };
}

// /status never declines on a failed lookup: an error reading Acme leaves the payment pending (code 408).
// Without a gateway_token (/pay or /payout never answered), the payment is found by its token, Acme's reference.
// When Acme has neither a charge nor a payout with it, the request may still be on its way: pending too (Payrail's
// status checker gives up after its bounded attempts).
export function statusHandler(deps: HandlerDeps) {
  return async (request: StatusRequest, context: AdapterRequestContext): Promise<AdapterAnswer> => {
    const prepared = prepare(deps, context);
    if ('answer' in prepared) return prepared.answer;
    const { token, gateway_token: gatewayToken } = request.payment;
    const lookup = <Resource>(path: string, check: AcmeCall<Resource>['check']) => prepared.call({ method: 'GET', path, logKind: 'status', check });
    const statusAnswer = (answer: AdapterAnswer) => (answer.result === false ? { ...answer, code: answer.code ?? 408 } : answer);
    if (gatewayToken?.startsWith('ch_')) return statusAnswer(answerOf(await lookup(`/v2/charges/${encode(gatewayToken)}`, acmeChecks.charge), chargeAnswerOf));
    if (gatewayToken?.startsWith('po_')) return statusAnswer(answerOf(await lookup(`/v2/payouts/${encode(gatewayToken)}`, acmeChecks.payout), payoutAnswerOf));
    const charges = await lookup(`/v2/charges?reference=${encode(token)}`, acmeChecks.chargeList);
    if (charges.kind !== 'ok') return outcomeUnknown(charges.kind === 'unknown' ? charges.reason : 'Acme Pay refused the charge lookup', [charges.log]);
    const [charge] = charges.resource.data;
    if (charge !== undefined) return { ...chargeAnswerOf(charge), logs: [charges.log] };
    const payouts = await lookup(`/v2/payouts?reference=${encode(token)}`, acmeChecks.payoutList);
    if (payouts.kind !== 'ok')
      return outcomeUnknown(payouts.kind === 'unknown' ? payouts.reason : 'Acme Pay refused the payout lookup', [charges.log, payouts.log]);
    const [payout] = payouts.resource.data;
    if (payout !== undefined) return { ...payoutAnswerOf(payout), logs: [charges.log, payouts.log] };
    return outcomeUnknown('Acme Pay has no charge or payout with this reference (yet)', [charges.log, payouts.log]);
  };
}

// The charge is read first: its id when Payrail has none, and its currency, which the refund must be in (Acme
// refunds in the charge's currency). The refund token is Acme's idempotency key: a re-sent refund is answered
// with the first one, never refunded twice.
export function refundHandler(deps: HandlerDeps) {
  return async (request: RefundRequest, context: AdapterRequestContext): Promise<AdapterAnswer> => {
    const prepared = prepare(deps, context);
    if ('answer' in prepared) return prepared.answer;
    const { token, gateway_token: gatewayToken, currency } = request.payment;
    const found = await findCharge(prepared.call, token, gatewayToken);
    if (found.kind !== 'ok') return answerOf(found, () => ({ result: false }));
    const charge = found.resource;
    if (charge === null) return { result: false, error: 'Acme Pay has no charge for this payment', logs: [found.log] };
    if (payrailCurrencyOf(charge.currency_code) !== currency) {
      return { result: false, error: `the refund is in ${currency}, the Acme charge in ${payrailCurrencyOf(charge.currency_code)}`, logs: [found.log] };
    }
    const refunded = await prepared.call({
      method: 'POST',
      path: `/v2/charges/${encode(charge.id)}/refunds`,
      body: refundBodyOf(request),
      idempotencyKey: `refund:${request.refund.token}`,
      logKind: 'refund',
      check: acmeChecks.refund,
    });
    return answerOf(refunded, refundAnswerOf, [found.log]);
  };
}

async function findCharge(call: Call, token: string, gatewayToken: string | undefined): Promise<AcmeCallResult<AcmeCharge | null>> {
  if (gatewayToken?.startsWith('ch_')) return call({ method: 'GET', path: `/v2/charges/${encode(gatewayToken)}`, logKind: 'refund', check: acmeChecks.charge });
  const listed = await call({ method: 'GET', path: `/v2/charges?reference=${encode(token)}`, logKind: 'refund', check: acmeChecks.chargeList });
  return listed.kind === 'ok' ? { ...listed, resource: listed.resource.data[0] ?? null } : listed;
}
