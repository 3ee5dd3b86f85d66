import type { AdapterCallResult } from './adapter-caller.ts';
import { checkAmount, checkDeadline, checkHttp200Json, checkLogs, checkShape, fail, isJsonObject, pass, skip } from './answer-checks.ts';
import { CONFORMANCE_DEFAULTS, type ConformanceCheck, type ConformanceMethod } from './options.ts';
import { malformedBody, newToken, payBody, payoutBody, refundBody, statusBody } from './request-bodies.ts';
import { acceptedCheck, declinedWithReason, refusedCheck, stringOrUndefined, unknownTokenCheck, type Accepted, type Suite } from './suite.ts';

// Each method with a contract-valid request (and a malformed one), each answer held to the contract (spec 2.9, 7.3).

// /pay and /status are what Payrail cannot work without; an adapter may leave payouts or refunds out.
const OPTIONAL_METHODS: ReadonlySet<string> = new Set<ConformanceMethod>(['payout', 'refund']);
const NOT_IMPLEMENTED_STATUSES: ReadonlySet<number | null> = new Set([404, 405, 501]);

// The four checks every answer to a valid request gets.
export function answerChecks(suite: Suite, label: string, result: AdapterCallResult, requirements: Parameters<typeof checkShape>[2] = {}): void {
  suite.checks.push(
    checkHttp200Json(`${label}/http-200`, result, suite.timeoutMs),
    checkDeadline(`${label}/within-timeout`, result, suite.timeoutMs),
    checkShape(`${label}/reply-shape`, result, requirements),
    checkLogs(`${label}/logs`, result),
  );
}

// An optional method answered 404: the adapter does not implement it, which is no fault.
function isUnsupported(suite: Suite, method: ConformanceMethod, result: AdapterCallResult): boolean {
  if (!OPTIONAL_METHODS.has(method) || !NOT_IMPLEMENTED_STATUSES.has(result.statusCode)) return false;
  suite.unsupported.add(method);
  suite.checks.push(skip(`${method}/supported`, `answered HTTP ${result.statusCode} at /${method}: the adapter does not implement it (unsupported)`));
  return true;
}

export async function payChecks(suite: Suite): Promise<Accepted | null> {
  const { context, options } = suite;
  const body = payBody(context, options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove);
  const result = await suite.call('pay', 'pay', body);
  answerChecks(suite, 'pay', result, { finalFields: true });
  suite.checks.push(acceptedCheck('pay/accepted', result), checkAmount('pay/amount', result, context, false));
  if (options.cardDecline === undefined) {
    suite.checks.push(skip('pay-decline/reason', 'no --card-decline given'));
  } else {
    const declined = await suite.call('pay-decline', 'pay', payBody(context, options.cardDecline));
    answerChecks(suite, 'pay-decline', declined, { finalFields: true });
    suite.checks.push(declinedWithReason('pay-decline/reason', declined));
  }
  const answer = isJsonObject(result.json) ? result.json : null;
  if (answer === null || answer['result'] !== true) return null;
  const accepted = { token: body.payment.token, gatewayToken: stringOrUndefined(answer['gateway_token']), status: answer['status'] };
  // Payrail may send a /pay again (a redelivered RabbitMQ request): the same token is the same payment, never a second.
  const repeat = await suite.call('pay-repeat', 'pay', body);
  suite.checks.push(repeatCheck(accepted, repeat, suite.timeoutMs));
  return accepted;
}

function repeatCheck(first: Accepted, repeat: AdapterCallResult, timeoutMs: number): ConformanceCheck {
  const name = 'pay-repeat/same-payment';
  const http = checkHttp200Json(name, repeat, timeoutMs);
  if (http.outcome !== 'pass' || !isJsonObject(repeat.json)) return http;
  if (repeat.json['result'] !== true) return pass(name, 'the repeat was refused: the first payment stands alone');
  const gatewayToken = stringOrUndefined(repeat.json['gateway_token']);
  if (first.gatewayToken !== undefined && gatewayToken !== undefined && gatewayToken !== first.gatewayToken) {
    return fail(name, `the same payment.token sent again made another transaction (gateway_token ${first.gatewayToken}, then ${gatewayToken})`);
  }
  return pass(name, `answered the same payment (gateway_token ${gatewayToken ?? '(none)'})`);
}

export async function payoutChecks(suite: Suite): Promise<void> {
  const { context, options } = suite;
  const result = await suite.call('payout', 'payout', payoutBody(context, options.cardPayout ?? options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove));
  if (isUnsupported(suite, 'payout', result)) return;
  answerChecks(suite, 'payout', result, { finalFields: true });
  suite.checks.push(checkAmount('payout/amount', result, context, false));
}

export async function statusChecks(suite: Suite, accepted: Accepted | null): Promise<void> {
  const { context } = suite;
  if (accepted === null) {
    suite.checks.push(skip('status/http-200', '/pay did not answer result true: no payment to ask about'));
  } else {
    const result = await suite.call('status', 'status', statusBody(context, accepted.token, accepted.gatewayToken));
    answerChecks(suite, 'status', result, { amountAndCurrency: true });
    suite.checks.push(checkAmount('status/amount', result, context, true));
    // Payrail asks without gateway_token when /pay gave none (it timed out, or answered 408).
    const bare = await suite.call('status-no-gateway-token', 'status', statusBody(context, accepted.token));
    answerChecks(suite, 'status-no-gateway-token', bare);
    suite.checks.push(checkAmount('status-no-gateway-token/amount', bare, context, true));
  }
  const unknown = await suite.call('status-unknown', 'status', statusBody(context, newToken('unknown')));
  suite.checks.push(
    checkHttp200Json('status-unknown/http-200', unknown, suite.timeoutMs),
    checkLogs('status-unknown/logs', unknown),
    unknownTokenCheck(unknown),
  );
}

export async function refundChecks(suite: Suite, accepted: Accepted | null): Promise<void> {
  if (accepted === null || accepted.status !== 'approved') {
    suite.checks.push(skip('refund/http-200', '/pay did not approve the payment: nothing to refund'));
    return;
  }
  const result = await suite.call('refund', 'refund', refundBody(suite.context, accepted.token, accepted.gatewayToken, suite.context.amountMinor));
  if (isUnsupported(suite, 'refund', result)) return;
  answerChecks(suite, 'refund', result);
}

export async function malformedChecks(suite: Suite): Promise<void> {
  for (const method of ['pay', ...[...suite.methods].filter((method) => method !== 'pay')] as ConformanceMethod[]) {
    if (suite.unsupported.has(method)) {
      suite.checks.push(skip(`${method}-malformed/refused`, `/${method} is not implemented (HTTP 404)`));
      continue;
    }
    const result = await suite.call(`${method}-malformed`, method, malformedBody(method));
    if (isUnsupported(suite, method, result)) continue;
    suite.checks.push(
      checkHttp200Json(`${method}-malformed/http-200`, result, suite.timeoutMs),
      refusedCheck(`${method}-malformed/refused`, result),
      checkLogs(`${method}-malformed/logs`, result),
    );
  }
  const notJson = await suite.call('pay-not-json', 'pay', '{"method_name": "pay",');
  suite.checks.push(checkHttp200Json('pay-not-json/http-200', notJson, suite.timeoutMs), refusedCheck('pay-not-json/refused', notJson));
}
