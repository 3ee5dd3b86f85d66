import { isSecretName, keyNameOf } from '@payrail/adapter-kit';
import { runConformance, type ConformanceCheck, type ConformanceOptions, type ConformanceReport } from '@payrail/adapter-kit/conformance';
import type { AppContext } from '../../app-context.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { errorMessage } from '../../platform/lib/type-guards.ts';
import { methodSettingsOf, type GatewaySettings } from '../contract/gateway-settings.ts';
import { findGatewayById, type GatewayRow } from '../store/gateways-repo.ts';
import { unsealSettings } from './gateways.ts';

// The operator console's "check this gateway": the adapter kit's conformance suite, as `payrail adapter-check` runs it
// (src/cli/adapter-check-command.ts), against the gateway's own adapter with its stored settings: its full_link, its
// sign_key (X-SIGNATURE, callback JWTs), its api_key and provider keys. The suite's requests carry callback and return
// URLs on Payrail's public origin, as Payrail's own requests do (an adapter may accept no other); so no provider
// callback reaches the suite's listener and the callback checks come back unsupported. Like the CLI, it sends the
// test cards with settings.sandbox true unless the gateway says false.

const GATEWAY_CHECK_DEADLINE_MS = 60_000; // the whole suite; a slower adapter is reported as failing
const CALL_TIMEOUT_MS_MAX = 15_000; // one answer, at most (less when the gateway's pay response_timeout is less)
const SUITES_RUNNING_MAX = 2; // per process: each opens a listener and sends ~30 requests
const SECRET_REDACTED_LENGTH_MIN = 4; // shorter values would blank out ordinary words of a message

export type AdapterCheckVerdict = 'pass' | 'fail' | 'unsupported';

interface AdapterCheckResult {
  id: string; // the suite's check name: pay/http-200, signature/wrong/refused, …
  verdict: AdapterCheckVerdict; // unsupported: the suite did not exercise it (no card for it, no callback, rabbit)
  message: string; // why; no secret of the gateway in it
}

export interface GatewayCheckReport {
  gatewayId: number;
  alias: string;
  processingMethod: 'http_requests' | 'rabbit' | null; // null: the stored settings could not be read
  adapterUrl: string | null; // full_link without user info, query or fragment
  passed: boolean; // at least one check passed and none failed
  checks: AdapterCheckResult[];
  durationMs: number;
}

export type GatewayCheckDeps = Pick<AppContext, 'database' | 'masterKey' | 'config'> & { checkDeadlineMs?: number };

// A suite past its deadline runs on (each of its calls bounded): it holds its place until it ends.
let suitesRunning = 0;

export async function checkGatewayAdapter(deps: GatewayCheckDeps, gatewayId: number): Promise<GatewayCheckReport> {
  const gateway = await findGatewayById(deps.database.db, gatewayId);
  if (!gateway) throw new ApiError('not_found', 404, `gateway ${gatewayId} not found`);
  // No await from here to the suite's start: two checks cannot both pass this test for the last place.
  if (suitesRunning >= SUITES_RUNNING_MAX) {
    throw new ApiError('rate_limited', 429, `${SUITES_RUNNING_MAX} gateway checks are running: try again when one has finished`);
  }
  const startedAt = performance.now();
  const { settings, checks } = await checksOfGateway(deps, gateway);
  const secrets = secretValuesOf(settings);
  return {
    gatewayId: gateway.id,
    alias: gateway.alias,
    processingMethod: settings?.gateway_settings.processing_method ?? null,
    adapterUrl: shownUrl(settings?.gateway_settings.full_link),
    passed: checks.some((check) => check.verdict === 'pass') && checks.every((check) => check.verdict !== 'fail'),
    checks: checks.map((check) => ({ ...check, message: redacted(check.message, secrets) })),
    durationMs: Math.round(performance.now() - startedAt),
  };
}

async function checksOfGateway(deps: GatewayCheckDeps, gateway: GatewayRow): Promise<{ settings: GatewaySettings | null; checks: AdapterCheckResult[] }> {
  let settings: GatewaySettings;
  try {
    settings = unsealSettings(deps.masterKey, gateway);
  } catch (error) {
    return { settings: null, checks: [{ id: 'settings/readable', verdict: 'fail', message: errorMessage(error) }] };
  }
  const { processing_method: processingMethod, full_link: fullLink } = settings.gateway_settings;
  if (processingMethod === 'rabbit') {
    const message = 'the conformance suite speaks HTTP; this gateway reaches its adapter over RabbitMQ';
    return { settings, checks: [{ id: 'transport/rabbit', verdict: 'unsupported', message }] };
  }
  if (fullLink === undefined) return { settings, checks: [{ id: 'settings/full-link', verdict: 'fail', message: 'the gateway has no full_link' }] };
  const deadlineMs = deps.checkDeadlineMs ?? GATEWAY_CHECK_DEADLINE_MS;
  const checks = await conformanceChecks(conformanceOptions(settings, fullLink, deps.config.publicUrl, deadlineMs), deadlineMs);
  if (Object.keys(settings.assets ?? {}).length > 0) {
    const message = "the suite calls the adapter without the gateway's assets (client certificate, CAs of its own)";
    checks.push({ id: 'transport/client-tls', verdict: 'unsupported', message });
  }
  return { settings, checks };
}

// What the CLI builds from its flags, from the gateway's settings instead (its provider keys passed through).
function conformanceOptions(settings: GatewaySettings, fullLink: string, publicUrl: string, deadlineMs: number): ConformanceOptions {
  const responseTimeoutMs = methodSettingsOf(settings, 'pay').responseTimeoutS * 1000;
  return {
    url: fullLink,
    signKey: settings.sign_key,
    ...(settings.api_key === undefined ? {} : { apiKey: settings.api_key }),
    timeoutMs: Math.min(responseTimeoutMs, CALL_TIMEOUT_MS_MAX, deadlineMs),
    sandbox: settings.sandbox ?? true,
    validateSignature: settings.validate_signature === true,
    callbackPublicUrl: publicUrl,
    settings,
  };
}

async function conformanceChecks(options: ConformanceOptions, deadlineMs: number): Promise<AdapterCheckResult[]> {
  let report: ConformanceReport | null;
  try {
    report = await withinDeadline(runningSuite(options), deadlineMs);
  } catch (error) {
    return [{ id: 'suite/started', verdict: 'fail', message: errorMessage(error) }];
  }
  if (report === null) return [{ id: 'suite/deadline', verdict: 'fail', message: `the adapter did not get through the checks within ${deadlineMs} ms` }];
  return report.checks.map(resultOf);
}

function runningSuite(options: ConformanceOptions): Promise<ConformanceReport> {
  suitesRunning += 1;
  return runConformance(options).finally(() => {
    suitesRunning -= 1;
  });
}

const VERDICTS: Readonly<Record<ConformanceCheck['outcome'], AdapterCheckVerdict>> = { pass: 'pass', fail: 'fail', skip: 'unsupported' };

function resultOf(check: ConformanceCheck): AdapterCheckResult {
  return { id: check.name, verdict: VERDICTS[check.outcome], message: check.reason };
}

// The suite bounds each call, not the run: past the deadline its last calls finish unawaited (each within its timeout).
async function withinDeadline<Value>(run: Promise<Value>, deadlineMs: number): Promise<Value | null> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), deadlineMs);
  });
  try {
    return await Promise.race([run, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

// Every string under a secret name (the one list of the adapter kit, as maskedSettings uses), the assets, and the user
// info of full_link: an adapter may echo any of them in an answer the suite quotes.
function secretValuesOf(settings: GatewaySettings | null): string[] {
  if (settings === null) return [];
  const found = stringsUnder(settings, false);
  const fullLink = settings.gateway_settings.full_link;
  if (fullLink !== undefined && URL.canParse(fullLink)) {
    const { username, password } = new URL(fullLink);
    found.push(username, password, decodedOrAsIs(username), decodedOrAsIs(password));
  }
  return [...new Set(found)].filter((value) => value.length >= SECRET_REDACTED_LENGTH_MIN).sort((left, right) => right.length - left.length);
}

function stringsUnder(value: unknown, secret: boolean): string[] {
  if (typeof value === 'string') return secret ? [value] : [];
  if (value === null || typeof value !== 'object') return [];
  if (Array.isArray(value)) return value.flatMap((item) => stringsUnder(item, secret));
  return Object.entries(value).flatMap(([name, inner]) => stringsUnder(inner, secret || isSecretName(keyNameOf(name))));
}

function decodedOrAsIs(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function redacted(message: string, secrets: readonly string[]): string {
  return secrets.reduce((text, secret) => text.replaceAll(secret, '[redacted]'), message);
}

function shownUrl(fullLink: string | undefined): string | null {
  if (fullLink === undefined || !URL.canParse(fullLink)) return null;
  const url = new URL(fullLink);
  url.username = '';
  url.password = '';
  url.search = '';
  url.hash = '';
  return url.toString();
}
