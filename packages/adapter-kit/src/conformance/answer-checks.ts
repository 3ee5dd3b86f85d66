import { Compile } from 'typebox/compile';
import { AdapterResponseSchema } from '../response-schema.ts';
import type { AdapterCallResult } from './adapter-caller.ts';
import type { ConformanceCheck } from './options.ts';

// What every answer must be (spec 2.9, 7.3): HTTP 200, JSON, the response schema, logs with kind and duration,
// and in time. Each function returns one named check.

const ResponseValidator = Compile(AdapterResponseSchema);
const ERRORS_SHOWN_MAX = 3;
const REASON_KEYS = ['declination_reason', 'details', 'reason', 'error'] as const; // spec 7.7

export type JsonObject = Record<string, unknown>;

export function pass(name: string, reason: string): ConformanceCheck {
  return { name, outcome: 'pass', reason };
}
export function fail(name: string, reason: string): ConformanceCheck {
  return { name, outcome: 'fail', reason };
}
export function skip(name: string, reason: string): ConformanceCheck {
  return { name, outcome: 'skip', reason };
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function noAnswer(call: AdapterCallResult, timeoutMs: number): string {
  return call.timedOut ? `no answer within ${timeoutMs} ms` : `no HTTP answer: ${call.networkError ?? 'unknown error'}`;
}

export function checkHttp200Json(name: string, call: AdapterCallResult, timeoutMs: number): ConformanceCheck {
  if (call.statusCode === null) return fail(name, noAnswer(call, timeoutMs));
  if (call.statusCode !== 200) return fail(name, `answered HTTP ${call.statusCode}; an adapter always answers 200 (spec 7.3)`);
  if (!isJsonObject(call.json)) return fail(name, `answered 200 but the body is not a JSON object: ${excerpt(call.bodyText)}`);
  return pass(name, 'HTTP 200 with a JSON object');
}

export function checkDeadline(name: string, call: AdapterCallResult, timeoutMs: number): ConformanceCheck {
  if (call.statusCode === null) return fail(name, noAnswer(call, timeoutMs));
  return pass(name, `answered in ${Math.round(call.elapsedMs)} ms (limit ${timeoutMs} ms)`);
}

export function checkShape(name: string, call: AdapterCallResult, requirements: { finalFields?: boolean; amountAndCurrency?: boolean } = {}): ConformanceCheck {
  if (!isJsonObject(call.json)) return skip(name, 'no JSON answer to check');
  if (!ResponseValidator.Check(call.json)) {
    const errors = ResponseValidator.Errors(call.json)
      .slice(0, ERRORS_SHOWN_MAX)
      .map((error) => `${error.instancePath || '/'} ${error.message}`);
    return fail(name, `does not match the response schema (spec 2.9): ${errors.join('; ')}`);
  }
  const answer = call.json;
  if (answer['result'] === true && answer['status'] === undefined) return fail(name, 'result true without status (spec 2.9)');
  if (requirements.finalFields === true && answer['result'] === true && typeof answer['gateway_token'] !== 'string') {
    return fail(name, 'result true without gateway_token (spec 2.9)');
  }
  if (requirements.amountAndCurrency === true && answer['result'] === true && (answer['amount'] === undefined || answer['currency'] === undefined)) {
    return fail(name, 'a /status answer must carry amount and currency (section 4)');
  }
  if (answer['result'] === false && typeof answer['error'] !== 'string' && typeof answer['details'] !== 'string') {
    return fail(name, 'result false without an error text (spec 7.4)');
  }
  const redirectUrl = redirectUrlOf(answer);
  if (redirectUrl !== null && !isHttpUrl(redirectUrl)) {
    return fail(name, `redirect_request.url ${JSON.stringify(excerpt(redirectUrl))} is not an http(s) URL: Payrail never sends a customer there`);
  }
  return pass(
    name,
    `matches the response schema (result ${String(answer['result'])}${answer['status'] === undefined ? '' : `, status ${String(answer['status'])}`})`,
  );
}

// spec 2.9 requires the array (an empty one too: a refused call may have had no interaction), none of an item's
// fields; those present must have their type.
export function checkLogs(name: string, call: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(call.json)) return skip(name, 'no JSON answer to check');
  const logs = call.json['logs'];
  if (!Array.isArray(logs)) return fail(name, 'logs is missing (spec 2.9: required)');
  for (const [index, log] of logs.entries()) {
    if (!isJsonObject(log)) return fail(name, `logs[${index}] is not an object`);
    if (log['kind'] !== undefined && typeof log['kind'] !== 'string') return fail(name, `logs[${index}].kind must be a string`);
    const duration = log['duration'];
    if (duration !== undefined && (typeof duration !== 'number' || !Number.isFinite(duration) || duration < 0)) {
      return fail(name, `logs[${index}].duration must be a number of seconds`);
    }
    if (log['status'] !== undefined && !Number.isInteger(log['status'])) return fail(name, `logs[${index}].status must be an HTTP status`);
    if (log['request'] !== undefined && !isJsonObject(log['request'])) return fail(name, `logs[${index}].request must be an object {url, body}`);
  }
  return pass(name, logs.length === 0 ? 'logs: [] (the array is required, not an item)' : `${logs.length} log item(s)`);
}

// The amount and currency an answer reports are the ones sent (spec 8: minor units in the adapter contract). Where
// required (a /status answer), they must be there; elsewhere they are compared when given.
export function checkAmount(name: string, call: AdapterCallResult, sent: { amountMinor: number; currency: string }, required: boolean): ConformanceCheck {
  if (!isJsonObject(call.json)) return skip(name, 'no JSON answer to check');
  const answer = call.json;
  if (answer['result'] !== true) return skip(name, `answered ${describeAnswer(answer)}: no amount to compare`);
  const { amount, currency } = answer;
  if (required && (amount === undefined || currency === undefined)) return fail(name, 'a /status answer must carry amount and currency (section 4)');
  if (amount !== undefined && amount !== sent.amountMinor) {
    return fail(name, `answered amount ${JSON.stringify(amount)} for ${sent.amountMinor} ${sent.currency} sent (minor units both ways, spec 8)`);
  }
  if (currency !== undefined && currency !== sent.currency) return fail(name, `answered currency ${JSON.stringify(currency)} for ${sent.currency} sent`);
  if (amount === undefined && currency === undefined) return pass(name, 'no amount in the answer (optional here)');
  return pass(name, `${sent.amountMinor} ${sent.currency}, as sent`);
}

export function describeAnswer(answer: JsonObject): string {
  return `result ${JSON.stringify(answer['result'])}${answer['status'] === undefined ? '' : `, status ${JSON.stringify(answer['status'])}`}`;
}

// spec 9: redirect_request, or its camelCase twin; the snake_case key wins, as Payrail reads it.
function redirectUrlOf(answer: JsonObject): string | null {
  const redirect = answer['redirect_request'] ?? answer['redirectRequest'];
  return isJsonObject(redirect) && typeof redirect['url'] === 'string' ? redirect['url'] : null;
}

function isHttpUrl(url: string): boolean {
  return URL.canParse(url) && /^https?:$/.test(new URL(url).protocol);
}

export function reasonOf(answer: JsonObject): string | null {
  for (const key of REASON_KEYS) {
    const value = answer[key];
    if (typeof value === 'string' && value.trim() !== '') return value;
  }
  return null;
}

export function isDecline(answer: JsonObject): boolean {
  return answer['result'] === false || answer['status'] === 'declined' || Object.hasOwn(answer, 'error');
}

export function excerpt(text: string): string {
  const EXCERPT_CHARS_MAX = 120;
  return text.length > EXCERPT_CHARS_MAX ? `${text.slice(0, EXCERPT_CHARS_MAX)}…` : text || '(empty)';
}
