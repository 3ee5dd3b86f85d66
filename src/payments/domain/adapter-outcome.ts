// What an adapter's answer means for the payment (spec 2.9 and 7). Anything we do not understand
// maps to pending, never to approved: only an explicit answer is final.
import { isJsonObject } from '../../platform/lib/type-guards.ts';
import { PROVIDER_TIMEOUT_CODE, RedirectRequestSchema } from '@payrail/adapter-kit';
import { Compile } from 'typebox/compile';
import type { AdapterLog, AdapterRequisites, AdapterStatus, RedirectRequest } from './adapter-answer.ts';
import { readAdapterStep, type AdapterStep } from './adapter-step.ts';

export type AdapterAnswer =
  | { kind: 'response'; body: unknown }
  | { kind: 'timeout' }
  | { kind: 'network_error'; message: string; code?: string } // code: the system error code (ECONNREFUSED, …) when there is one
  | { kind: 'http_error'; statusCode: number }
  | { kind: 'invalid_json' };

export interface AdapterOutcome {
  status: AdapterStatus;
  declineReason: string | null;
  gatewayToken: string | null;
  redirectRequest: RedirectRequest | null;
  requisites: AdapterRequisites | null;
  gatewayDetails: Record<string, unknown> | null;
  providerResponseData: Record<string, unknown> | null;
  recurringGatewayToken: string | null;
  logs: AdapterLog[];
  amount: number | null;
  currency: string | null;
  systemError: string | null;
  step: AdapterStep | null; // a pending answer's secure_code_request or next_step (domain/adapter-step.ts)
}

const ADAPTER_LOGS_KEPT_MAX = 100;
const redirectTypeCheck = Compile(RedirectRequestSchema.properties.type); // the kit's redirect types
// spec 7.7: the order in which a decline reason is looked for.
const DECLINE_REASON_KEYS = ['declination_reason', 'details', 'reason', 'error'] as const;
const DECLINE_REASON_PREFIX = 'gateway response error: ';
const DECLINE_WITHOUT_REASON = 'Declined payment must have a reason.';

type JsonObject = Record<string, unknown>;

// An operation's answer (/pay, /payout, /refund, a step, …) and a callback's claims. A status lookup's answer is read
// by interpretStatusAnswer (domain/status-answer.ts): there result false is a failed lookup, never a decline.
export function interpretAdapterAnswer(answer: AdapterAnswer): AdapterOutcome {
  switch (answer.kind) {
    case 'response':
      return interpretBody(answer.body);
    case 'timeout':
      return pendingOutcome('adapter did not answer before the response timeout');
    case 'network_error':
      return pendingOutcome(`adapter unreachable: ${answer.message}`);
    case 'invalid_json':
      return pendingOutcome('adapter answered with a body that is not valid JSON');
    case 'http_error':
      // spec 7.3: adapters always answer 200, so any other status is a fault of the adapter, not a decline.
      return pendingOutcome(`adapter answered HTTP ${answer.statusCode}; adapters must answer 200`);
  }
}

function interpretBody(body: unknown): AdapterOutcome {
  if (!isJsonObject(body)) return pendingOutcome('adapter answered with a body that is not a JSON object');
  const outcome = { ...pendingOutcome(null), ...wellTypedFields(body) };

  // spec 7.5: result=false with code 408 is the provider timing out; the final status comes later.
  if (body['result'] === false && isTimeoutCode(body['code'])) {
    return { ...outcome, systemError: 'adapter reports a provider timeout (code 408)' };
  }
  // spec 7.6: any one of these makes the answer a decline.
  if (body['result'] === false || body['status'] === 'declined' || Object.hasOwn(body, 'error')) {
    return { ...outcome, status: 'declined', declineReason: declineReasonOf(body) };
  }
  if (body['status'] === 'approved') {
    if (body['result'] === true) return { ...outcome, status: 'approved' };
    return { ...outcome, systemError: 'adapter reports approved without result: true' };
  }
  if (body['status'] === 'pending') return withStep(outcome, body);
  return { ...outcome, systemError: `adapter answered a status we do not understand: ${describeStatus(body['status'])}` };
}

// An outcome that reports nothing yet; others are built on it.
export function pendingOutcome(systemError: string | null): AdapterOutcome {
  return {
    status: 'pending',
    declineReason: null,
    gatewayToken: null,
    redirectRequest: null,
    requisites: null,
    gatewayDetails: null,
    providerResponseData: null,
    recurringGatewayToken: null,
    logs: [],
    amount: null,
    currency: null,
    systemError,
    step: null,
  };
}

// Only a pending answer asks for a step; one we cannot show is left out and said why (the status checker goes on).
function withStep(outcome: AdapterOutcome, body: JsonObject): AdapterOutcome {
  const reading = readAdapterStep(body);
  if ('problem' in reading) return { ...outcome, systemError: `adapter asked for a step that cannot be shown: ${reading.problem}` };
  return { ...outcome, step: reading.step };
}

function wellTypedFields(body: JsonObject): Omit<AdapterOutcome, 'status' | 'declineReason' | 'systemError' | 'step'> {
  const amount = body['amount'];
  return {
    gatewayToken: nonEmptyStringOrNull(body['gateway_token']),
    redirectRequest: redirectRequestOf(body),
    requisites: isJsonObject(body['requisites']) ? body['requisites'] : null,
    gatewayDetails: isJsonObject(body['gateway_details']) ? body['gateway_details'] : null,
    providerResponseData: isJsonObject(body['provider_response_data']) ? body['provider_response_data'] : null,
    recurringGatewayToken: nonEmptyStringOrNull(body['recurring_gateway_token']),
    logs: logsOf(body['logs']),
    amount: typeof amount === 'number' && Number.isSafeInteger(amount) && amount >= 0 ? amount : null,
    currency: nonEmptyStringOrNull(body['currency']),
  };
}

function declineReasonOf(body: JsonObject): string {
  for (const key of DECLINE_REASON_KEYS) {
    const reason = body[key];
    if (typeof reason === 'string' && reason.trim() !== '') return DECLINE_REASON_PREFIX + reason;
  }
  return DECLINE_WITHOUT_REASON;
}

// spec 2.9: redirect_request, or its camelCase twin redirectRequest; the snake_case key wins.
function redirectRequestOf(body: JsonObject): RedirectRequest | null {
  const candidate = body['redirect_request'] ?? body['redirectRequest'];
  if (!isJsonObject(candidate)) return null;
  const { url, type, params } = candidate;
  if (typeof url !== 'string' || !isHttpUrl(url)) return null;
  if (!redirectTypeCheck.Check(type)) return null;
  if (params === undefined) return { url, type };
  if (!isJsonObject(params)) return null;
  return { url, type, params };
}

// The customer's browser is sent to this URL, so a javascript: or data: URL must never pass.
function isHttpUrl(url: string): boolean {
  if (!URL.canParse(url)) return false;
  const { protocol } = new URL(url);
  return protocol === 'https:' || protocol === 'http:';
}

function logsOf(logs: unknown): AdapterLog[] {
  if (!Array.isArray(logs)) return [];
  return logs.filter(isJsonObject).slice(0, ADAPTER_LOGS_KEPT_MAX);
}

function isTimeoutCode(code: unknown): boolean {
  return code === PROVIDER_TIMEOUT_CODE || code === String(PROVIDER_TIMEOUT_CODE);
}

function describeStatus(status: unknown): string {
  if (status === undefined) return '(missing)';
  return JSON.stringify(status)?.slice(0, 100) ?? typeof status;
}

function nonEmptyStringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}
