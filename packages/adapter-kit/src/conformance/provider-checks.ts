import type { AdapterCallResult } from './adapter-caller.ts';
import { checkHttp200Json, checkLogs, describeAnswer, excerpt, fail, isJsonObject, pass, skip } from './answer-checks.ts';
import { CONFORMANCE_DEFAULTS, type ConformanceCheck } from './options.ts';
import { settingsWithProviderUrl, type ProviderStub, type ProviderStubMode } from './provider-stub.ts';
import { payBody, statusBody, type BodyContext } from './request-bodies.ts';
import { isTimeoutAnswer, refusedCheck, type Suite } from './suite.ts';

// What the adapter does with its provider, seen from the provider's side: the suite's provider stub stands at the
// settings key the adapter reads its provider's URL from (options.providerUrlSetting) for these calls only.
//   provider-5xx      the provider answers 503: result=false, an error, code 408 (spec 7.4: the payment stays in
//                     processing; Payrail declines a result=false without code 408, spec 7.6)
//   provider-timeout  the provider never answers: result=false with code 408 within response_timeout (spec 7.5)
//   signature/*       a call with a wrong or no X-SIGNATURE is refused and never reaches the provider (spec 5.5)

const PROVIDER_TIMEOUT_S = 2; // response_timeout sent with the stalled call
const ANSWER_LATE_MS = 250; // measurement slack past response_timeout
const UNSIGNED_SETTLE_MS = 300; // how long after a refused call its provider request would still count

interface ProviderSide {
  stub: ProviderStub | null;
  reached: boolean; // a signed call did reach the stub: its silence for an unsigned one means something
}

// Whether a signed call reached the stub (false without one).
export async function providerChecks(suite: Suite, stub: ProviderStub | null): Promise<boolean> {
  const path = suite.options.providerUrlSetting;
  if (stub === null || path === undefined) {
    const why = 'no providerUrlSetting (--provider-url-setting): the suite cannot stand in for the provider';
    suite.checks.push(skip('provider-5xx/answer', why), skip('provider-timeout/answer', why));
    return false;
  }
  const before = stub.requestCount();
  const failing = await callThroughStub(suite, stub, 'unavailable', 'provider-5xx', path);
  if (stub.requestCount() === before) {
    const why = `the adapter never called the provider stub set at settings.${path}: is that where it reads its provider's URL?`;
    suite.checks.push(skip('provider-5xx/answer', why), skip('provider-timeout/answer', why));
    return false;
  }
  suite.checks.push(checkHttp200Json('provider-5xx/http-200', failing, suite.timeoutMs), checkLogs('provider-5xx/logs', failing));
  suite.checks.push(pendingAnswerCheck('provider-5xx/answer', failing, 'the provider answered 503'));
  const stalled = await callThroughStub(suite, stub, 'stall', 'provider-timeout', path);
  suite.checks.push(timeoutCheck(stalled));
  return true;
}

function stubContext(suite: Suite, stub: ProviderStub, path: string, responseTimeoutS?: number): BodyContext {
  const settings = settingsWithProviderUrl(suite.context.settings, path, stub.origin);
  if (responseTimeoutS !== undefined) settings.gateway_settings = { ...settings.gateway_settings, methods: { pay: { response_timeout: responseTimeoutS } } };
  return { ...suite.context, settings };
}

async function callThroughStub(suite: Suite, stub: ProviderStub, mode: ProviderStubMode, label: string, path: string): Promise<AdapterCallResult> {
  stub.mode = mode;
  const stalls = mode === 'stall';
  const context = stubContext(suite, stub, path, stalls ? PROVIDER_TIMEOUT_S : undefined);
  const body = payBody(context, suite.options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove);
  const timeoutMs = stalls ? Math.max(suite.timeoutMs, PROVIDER_TIMEOUT_S * 1000 * 2) : suite.timeoutMs;
  return suite.call(label, 'pay', body, { timeoutMs });
}

function pendingAnswerCheck(name: string, result: AdapterCallResult, what: string): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (isTimeoutAnswer(result.json) && typeof result.json['error'] === 'string') return pass(name, `result false, code 408: "${result.json['error']}"`);
  if (result.json['result'] === false) {
    return fail(
      name,
      `${what} and the adapter answered result false without code 408: Payrail declines that (spec 7.6), though the payment may have been taken`,
    );
  }
  return fail(name, `${what}, yet the adapter answered ${describeAnswer(result.json)}; expected result false with code 408 and an error`);
}

function timeoutCheck(result: AdapterCallResult): ConformanceCheck {
  const name = 'provider-timeout/answer';
  const limitMs = PROVIDER_TIMEOUT_S * 1000;
  if (result.statusCode === null) return fail(name, `the provider never answered, and neither did the adapter (waited ${Math.round(result.elapsedMs)} ms)`);
  if (result.statusCode !== 200 || !isJsonObject(result.json)) return fail(name, `answered HTTP ${result.statusCode}: ${excerpt(result.bodyText)}`);
  if (result.elapsedMs > limitMs + ANSWER_LATE_MS) {
    return fail(
      name,
      `answered after ${Math.round(result.elapsedMs)} ms; response_timeout was ${PROVIDER_TIMEOUT_S} s: Payrail had stopped waiting (spec 7.5)`,
    );
  }
  return pendingAnswerCheck(name, result, `the provider did not answer within response_timeout (${PROVIDER_TIMEOUT_S} s)`);
}

export async function signatureChecks(suite: Suite, provider: ProviderSide): Promise<void> {
  if (suite.options.validateSignature === false) {
    const why = 'the adapter does not validate X-SIGNATURE (--no-signature)';
    suite.checks.push(skip('signature/wrong', why), skip('signature/missing', why));
    return;
  }
  const path = suite.options.providerUrlSetting;
  const { stub } = provider;
  if (stub !== null) stub.mode = 'unavailable';
  for (const [name, signature] of [
    ['signature/wrong', 'wrong'],
    ['signature/missing', 'none'],
  ] as const) {
    const context = stub !== null && path !== undefined ? stubContext(suite, stub, path) : suite.context;
    const body = payBody(context, suite.options.cardApprove ?? CONFORMANCE_DEFAULTS.cardApprove);
    const before = stub?.requestCount() ?? 0;
    const refused = await suite.call(name, 'pay', body, { signature });
    const http = checkHttp200Json(`${name}/http-200`, refused, suite.timeoutMs);
    suite.checks.push(http, refusedCheck(`${name}/refused`, refused));
    if (stub !== null && provider.reached) {
      await new Promise((resolve) => setTimeout(resolve, UNSIGNED_SETTLE_MS));
      const seen = stub.requestCount() - before;
      suite.checks.push(
        seen === 0
          ? pass(`${name}/not-processed`, 'no request reached the provider stub')
          : fail(`${name}/not-processed`, `the provider stub received ${seen} request(s) for the unsigned call: the adapter processed it`),
      );
    } else {
      suite.checks.push(await statusEvidence(suite, `${name}/not-processed`, body.payment.token, provider));
    }
  }
}

// Without a provider stub the suite cannot see that nothing happened; a /status reporting an outcome still shows
// that something did.
async function statusEvidence(suite: Suite, name: string, token: string, provider: ProviderSide): Promise<ConformanceCheck> {
  const why =
    provider.stub === null
      ? 'not observed: give providerUrlSetting so the provider stub can see whether the call reached the provider'
      : 'not observed: no signed call reached the provider stub either';
  if (!suite.methods.has('status')) return skip(name, why);
  const status = await suite.call(`${name}-status`, 'status', statusBody(suite.context, token));
  if (isJsonObject(status.json) && status.json['result'] === true && (status.json['status'] === 'approved' || status.json['status'] === 'declined')) {
    return fail(name, `/status reports the refused payment as ${String(status.json['status'])}: the unsigned call was processed`);
  }
  return skip(name, why);
}
