import type { AdapterCallResult, CallOptions } from './adapter-caller.ts';
import { describeAnswer, fail, isDecline, isJsonObject, pass, reasonOf, skip, type JsonObject } from './answer-checks.ts';
import type { CallbackListener } from './callback-listener.ts';
import type { ConformanceCheck, ConformanceMethod, ConformanceOptions } from './options.ts';
import type { BodyContext } from './request-bodies.ts';

// What the groups of checks share during one run (run.ts builds it): the options, the calls made so far and the
// checks reported; and the verdicts more than one group gives.

export interface Observed {
  label: string;
  call: AdapterCallResult;
}

export interface Suite {
  options: ConformanceOptions;
  timeoutMs: number;
  methods: ReadonlySet<ConformanceMethod>;
  context: BodyContext;
  listener: CallbackListener;
  checks: ConformanceCheck[];
  observed: Observed[];
  unsupported: Set<ConformanceMethod>; // optional methods the adapter answers 404 (or 405, 501) for
  call(label: string, method: string, body: unknown, callOptions?: CallOptions & { timeoutMs?: number }): Promise<AdapterCallResult>;
}

// The payment the approving /pay created, for the checks that ask about it.
export interface Accepted {
  token: string;
  gatewayToken: string | undefined;
  status: unknown;
}

export function declinedWithReason(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (!isDecline(result.json)) return fail(name, `the decline card was answered ${describeAnswer(result.json)}, not declined`);
  const reason = reasonOf(result.json);
  return reason === null ? fail(name, 'declined without a reason (declination_reason, details, reason or error)') : pass(name, `declined: "${reason}"`);
}

// A valid, signed request with the approving card is taken: result true, approved or pending (3-D Secure, …).
export function acceptedCheck(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] === true && (result.json['status'] === 'approved' || result.json['status'] === 'pending')) {
    return pass(name, `accepted: ${describeAnswer(result.json)}`);
  }
  const why = reasonOf(result.json);
  return fail(name, `a valid, signed /pay with the approving card was answered ${describeAnswer(result.json)}${why === null ? '' : ` ("${why}")`}`);
}

export function refusedCheck(name: string, result: AdapterCallResult): ConformanceCheck {
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] !== false) return fail(name, `answered ${describeAnswer(result.json)}; it must be refused with result false`);
  return typeof result.json['error'] === 'string' ? pass(name, `refused: "${result.json['error']}"`) : fail(name, 'refused without an error text');
}

export function unknownTokenCheck(result: AdapterCallResult): ConformanceCheck {
  const name = 'status-unknown/answer';
  if (!isJsonObject(result.json)) return skip(name, 'no JSON answer to check');
  if (result.json['result'] === false || result.json['status'] === 'pending') return pass(name, `answered ${describeAnswer(result.json)}`);
  return fail(name, `answered ${describeAnswer(result.json)} for a token it never saw; expected result false or pending`);
}

export function declineReasonCheck(observed: readonly Observed[]): ConformanceCheck {
  const name = 'answers/decline-reason';
  // Payrail reads only an HTTP 200 answer as a decline (any other status leaves the payment pending).
  const declines = observed.filter((item) => item.call.statusCode === 200 && isJsonObject(item.call.json) && isDecline(item.call.json as JsonObject));
  if (declines.length === 0) return skip(name, 'no declined answer was seen');
  const without = declines.find((item) => reasonOf(item.call.json as JsonObject) === null);
  if (without !== undefined) return fail(name, `${without.label} declined without a reason (spec 7.9: "Declined payment must have a reason.")`);
  return pass(name, `${declines.length} declined answer(s), each with a reason`);
}

// spec 7.5: result=false with code 408 (a number, or its text, as Payrail reads it).
export function isTimeoutAnswer(answer: JsonObject): boolean {
  return answer['result'] === false && (answer['code'] === 408 || answer['code'] === '408');
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
