import { callAdapter, type AdapterCallResult, type CallOptions } from './adapter-caller.ts';
import {
  checkDeadline,
  checkHttp200Json,
  checkLogs,
  checkShape,
  excerpt,
  fail,
  isDecline,
  isJsonObject,
  pass,
  reasonOf,
  skip,
  type JsonObject,
} from './answer-checks.ts';
import { callbackProblem, checkAllCallbacks } from './callback-checks.ts';
import { startCallbackListener } from './callback-listener.ts';
import { CONFORMANCE_DEFAULTS, CONFORMANCE_METHODS, type ConformanceCheck, type ConformanceOptions, type ConformanceReport } from './options.ts';
import { malformedBody, newToken, payBody, payoutBody, refundBody, runId, settingsFor, statusBody, type BodyContext } from './request-bodies.ts';
import { validatedOptions } from './validate-options.ts';

// The conformance suite: contract-valid requests (and a few invalid ones) sent to a running adapter, each answer
// held to the contract; a callback listener standing in for Payrail. Every check is named and reported.

interface Observed {
  label: string;
  call: AdapterCallResult;
}

export async function runConformance(given: ConformanceOptions): Promise<ConformanceReport> {
  const options = validatedOptions(given);
  const timeoutMs = options.timeoutMs ?? CONFORMANCE_DEFAULTS.timeoutMs;
  const methods = new Set(options.methods ?? CONFORMANCE_METHODS);
  const listener = await startCallbackListener(options.callbackHost ?? CONFORMANCE_DEFAULTS.callbackHost, options.callbackPort ?? 0, options.callbackPublicUrl);
  const checks: ConformanceCheck[] = [];
  const observed: Observed[] = [];
  const context: BodyContext = {
    settings: settingsFor({
      url: options.url,
      signKey: options.signKey,
      apiKey: options.apiKey ?? CONFORMANCE_DEFAULTS.apiKey,
      sandbox: options.sandbox ?? true,
      timeoutS: Math.ceil(timeoutMs / 1000),
      extra: options.settings ?? {},
    }),
    listener,
    amountMinor: options.amountMinor ?? CONFORMANCE_DEFAULTS.amountMinor,
    currency: options.currency ?? CONFORMANCE_DEFAULTS.currency,
    merchantKey: `sk_conformance_${runId()}`,
  };
  const call = async (label: string, method: string, body: unknown, callOptions: CallOptions = {}) => {
    const result = await callAdapter(options.url, method, typeof body === 'string' ? body : JSON.stringify(body), options.signKey, timeoutMs, callOptions);
    observed.push({ label, call: result });
    return result;
  };
  // The four checks every answer to a valid request gets.
  const answerChecks = (label: string, result: AdapterCallResult, requirements: Parameters<typeof checkShape>[2] = {}) => {
    checks.push(
      checkHttp200Json(`${label}/http-200`, result, timeoutMs),
      checkDeadline(`${label}/within-timeout`, result, timeoutMs),
      checkShape(`${label}/reply-shape`, result, requirements),
      checkLogs(`${label}/logs`, result),
    );
  };

  try {
    const approved = await payChecks();
    if (methods.has('payout')) await payoutChecks();
    if (methods.has('status')) await statusChecks(approved);
    if (methods.has('refund')) await refundChecks(approved);
    await malformedChecks();
    await signatureChecks();
    checks.push(declineReasonCheck(observed));
    await callbackChecks();
  } finally {
    await listener.close();
  }
  return { passed: checks.every((check) => check.outcome !== 'fail'), checks };

  async function payChecks(): Promise<{ token: string; gatewayToken: string | undefined; status: unknown } | null> {
    const body = payBody(context, options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove);
    const result = await call('pay', 'pay', body);
    answerChecks('pay', result, { finalFields: true });
    const answer = isJsonObject(result.json) ? result.json : null;
    checks.push(acceptedCheck('pay/accepted', result));
    if (options.cardDecline === undefined) {
      checks.push(skip('pay-decline/reason', 'no --card-decline given'));
    } else {
      const declined = await call('pay-decline', 'pay', payBody(context, options.cardDecline));
      answerChecks('pay-decline', declined, { finalFields: true });
      checks.push(declinedWithReason('pay-decline/reason', declined));
    }
    if (answer === null || answer['result'] !== true) return null;
    return { token: body.payment.token, gatewayToken: stringOrUndefined(answer['gateway_token']), status: answer['status'] };
  }

  async function payoutChecks(): Promise<void> {
    const result = await call('payout', 'payout', payoutBody(context, options.cardPayout ?? options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove));
    answerChecks('payout', result, { finalFields: true });
  }

  async function statusChecks(approved: Awaited<ReturnType<typeof payChecks>>): Promise<void> {
    if (approved === null) {
      checks.push(skip('status/http-200', '/pay did not answer result true: no payment to ask about'));
    } else {
      const result = await call('status', 'status', statusBody(context, approved.token, approved.gatewayToken));
      answerChecks('status', result, { amountAndCurrency: true });
    }
    const unknown = await call('status-unknown', 'status', statusBody(context, newToken('unknown')));
    checks.push(checkHttp200Json('status-unknown/http-200', unknown, timeoutMs), checkLogs('status-unknown/logs', unknown));
    checks.push(unknownTokenCheck(unknown));
  }

  async function refundChecks(approved: Awaited<ReturnType<typeof payChecks>>): Promise<void> {
    if (approved === null || approved.status !== 'approved') {
      checks.push(skip('refund/http-200', '/pay did not approve the payment: nothing to refund'));
      return;
    }
    const result = await call('refund', 'refund', refundBody(context, approved.token, approved.gatewayToken, context.amountMinor));
    answerChecks('refund', result);
  }

  async function malformedChecks(): Promise<void> {
    for (const method of ['pay', ...[...methods].filter((method) => method !== 'pay')]) {
      const result = await call(`${method}-malformed`, method, malformedBody(method));
      checks.push(
        checkHttp200Json(`${method}-malformed/http-200`, result, timeoutMs),
        refusedCheck(`${method}-malformed/refused`, result),
        checkLogs(`${method}-malformed/logs`, result),
      );
    }
    const notJson = await call('pay-not-json', 'pay', '{"method_name": "pay",');
    checks.push(checkHttp200Json('pay-not-json/http-200', notJson, timeoutMs), refusedCheck('pay-not-json/refused', notJson));
  }

  async function signatureChecks(): Promise<void> {
    if (options.validateSignature === false) {
      checks.push(skip('signature/wrong', 'the adapter does not validate X-SIGNATURE (--no-signature)'), skip('signature/missing', 'as above'));
      return;
    }
    for (const [name, signature] of [
      ['signature/wrong', 'wrong'],
      ['signature/missing', 'none'],
    ] as const) {
      const body = payBody(context, options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove);
      const refused = await call(name, 'pay', body, { signature });
      const http = checkHttp200Json(`${name}/http-200`, refused, timeoutMs);
      checks.push(http, refusedCheck(`${name}/refused`, refused));
      if (http.outcome !== 'pass' || !methods.has('status')) continue;
      // Not processed: the adapter knows nothing of the token afterwards.
      const status = await call(`${name}-status`, 'status', statusBody(context, body.payment.token));
      checks.push(notProcessedCheck(`${name}/not-processed`, status));
    }
  }

  async function callbackChecks(): Promise<void> {
    const expected = { signKey: options.signKey, merchantKey: context.merchantKey };
    if (options.cardCallback === undefined) {
      checks.push(skip('callback/pending-card', 'no --card-callback given'));
    } else {
      const body = payBody(context, options.cardCallback);
      const result = await call('pay-callback', 'pay', body);
      answerChecks('pay-callback', result, { finalFields: true });
      const gatewayToken = isJsonObject(result.json) ? stringOrUndefined(result.json['gateway_token']) : undefined;
      const callbackUrl = new URL(listener.callbackUrl(body.payment.token)).pathname;
      const callback = await listener.waitFor((received) => received.path === callbackUrl, options.callbackWaitMs ?? CONFORMANCE_DEFAULTS.callbackWaitMs);
      if (callback === null) {
        checks.push(
          fail('callback/pending-card', `no callback reached ${callbackUrl} within ${options.callbackWaitMs ?? CONFORMANCE_DEFAULTS.callbackWaitMs} ms`),
        );
      } else {
        const problem = await callbackProblem(callback, { ...expected, ...(gatewayToken === undefined ? {} : { gatewayToken }) });
        checks.push(
          problem === null
            ? pass('callback/pending-card', 'the callback verified: HS512 JWT under sign_key, claims, secure')
            : fail('callback/pending-card', problem),
        );
      }
    }
    if (listener.received.length === 0) checks.push(skip('callback/all-verify', 'no callback was received during the run'));
    else checks.push(await checkAllCallbacks('callback/all-verify', listener.received, expected));
  }
}

function declinedWithReason(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (!isDecline(result.json)) return fail(name, `the decline card was answered ${describeAnswer(result.json)}, not declined`);
  const reason = reasonOf(result.json);
  return reason === null ? fail(name, 'declined without a reason (declination_reason, details, reason or error)') : pass(name, `declined: "${reason}"`);
}

// A valid, signed request with the approving card is taken: result true, approved or pending (3-D Secure, …).
function acceptedCheck(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] === true && (result.json['status'] === 'approved' || result.json['status'] === 'pending')) {
    return pass(name, `accepted: ${describeAnswer(result.json)}`);
  }
  const why = reasonOf(result.json);
  return fail(name, `a valid, signed /pay with the approving card was answered ${describeAnswer(result.json)}${why === null ? '' : ` ("${why}")`}`);
}

function refusedCheck(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] !== false) return fail(name, `answered ${describeAnswer(result.json)}; it must be refused with result false`);
  return typeof result.json['error'] === 'string' ? pass(name, `refused: "${result.json['error']}"`) : fail(name, 'refused without an error text');
}

function unknownTokenCheck(result: AdapterCallResult): ConformanceCheck {
  const name = 'status-unknown/answer';
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] === false || result.json['status'] === 'pending') return pass(name, `answered ${describeAnswer(result.json)}`);
  return fail(name, `answered ${describeAnswer(result.json)} for a token it never saw; expected result false or pending`);
}

function notProcessedCheck(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return fail(name, `/status after the refused call did not answer JSON: ${excerpt(result.bodyText)}`);
  const status = result.json['status'];
  if (result.json['result'] === true && (status === 'approved' || status === 'declined')) {
    return fail(name, `/status reports the refused payment as ${String(status)}: the unsigned call was processed`);
  }
  return pass(name, `/status knows no outcome for it (${describeAnswer(result.json)})`);
}

function declineReasonCheck(observed: readonly Observed[]): ConformanceCheck {
  const name = 'answers/decline-reason';
  const declines = observed.filter((item) => isJsonObject(item.call.json) && isDecline(item.call.json as JsonObject));
  if (declines.length === 0) return skip(name, 'no declined answer was seen');
  const without = declines.find((item) => reasonOf(item.call.json as JsonObject) === null);
  if (without !== undefined) return fail(name, `${without.label} declined without a reason (spec 7.9: "Declined payment must have a reason.")`);
  return pass(name, `${declines.length} declined answer(s), each with a reason`);
}

function describeAnswer(answer: JsonObject): string {
  return `result ${JSON.stringify(answer['result'])}${answer['status'] === undefined ? '' : `, status ${JSON.stringify(answer['status'])}`}`;
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
