import type { AppContext } from '../../app-context.ts';
import type { DbOrTx } from '../../platform/database.ts';
import { decryptWithMasterKey, encryptWithMasterKey } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { GatewaySettingsSchema, providerSettingsProblem, type GatewaySettings } from '../contract/gateway-settings.ts';
import { parseTimeRates, TimeRatesError } from '../../platform/lib/status-check-schedule.ts';
import { isRabbitSettingsProblem, rabbitEndpointOf } from '../gateways/rabbit-endpoint.ts';
import { readCustomHost } from '../domain/custom-host.ts';
import { assetsProblem } from '../gateways/client-tls.ts';
import { findActiveGateway, findGateway, findGatewayById, type GatewayRow } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import { Compile } from 'typebox/compile';

export const SANDBOX_GATEWAY_ALIAS = 'sandbox';

export interface ResolvedGateway {
  gatewayId: number | null; // null: the built-in sandbox
  alias: string;
  settings: GatewaySettings;
}

export function sealSettings(masterKey: Buffer, settings: GatewaySettings): string {
  return encryptWithMasterKey(masterKey, JSON.stringify(settings));
}

// Settings are checked when they are written (the admin API, the CLI); read back, they are checked again rather
// than trusted: a row written by another version, or by hand, fails here with its gateway named.
const storedSettings = Compile(GatewaySettingsSchema);

export function unsealSettings(masterKey: Buffer, gateway: GatewayRow): GatewaySettings {
  const settings: unknown = JSON.parse(decryptWithMasterKey(masterKey, gateway.settingsSealed));
  if (!storedSettings.Check(settings)) throw new Error(`gateway ${gateway.id} (${gateway.alias}): its stored settings do not match the settings schema`);
  return settings;
}

// Refuses what this version cannot run, with the reason (spec 2.10).
export function assertRunnableSettings(settings: GatewaySettings): void {
  if (settings.gateway_settings.processing_method === 'rabbit') {
    // spec 2.10: rabbit_url (amqp:// or amqps://), credentials in rabbit_user / rabbit_password or the URL.
    const endpoint = rabbitEndpointOf(settings.gateway_settings);
    if (isRabbitSettingsProblem(endpoint)) {
      throw new ApiError('invalid_field', 422, `${endpoint.field} ${endpoint.message}`, [{ code: 'invalid_field', ...endpoint }]);
    }
    // A URL is shown in listings and logs as it is; a password belongs in rabbit_password, which is masked.
    if (new URL(settings.gateway_settings.rabbit_url ?? '').password !== '') {
      const field = 'settings.gateway_settings.rabbit_url';
      const message = 'must not carry a password: put it in rabbit_password (masked in listings and logs)';
      throw new ApiError('invalid_field', 422, `${field} ${message}`, [{ code: 'invalid_field', field, message }]);
    }
  } else if (!settings.gateway_settings.full_link) {
    throw new ApiError('invalid_field', 422, 'full_link is required for http_requests', [
      { code: 'invalid_field', field: 'settings.gateway_settings.full_link', message: 'is required for processing_method http_requests' },
    ]);
  }
  assertValidTimeRates(settings.gateway_settings.status_checker_time_rates);
  const problem = providerSettingsProblem(settings) ?? customHostProblem(settings.custom_host) ?? assetsProblem(settings.assets);
  if (problem) throw new ApiError('invalid_field', 422, `${problem.field} ${problem.message}`, [{ code: 'invalid_field', ...problem }]);
}

function customHostProblem(customHost: string | undefined): { field: string; message: string } | null {
  if (customHost === undefined) return null;
  const reading = readCustomHost(customHost);
  return 'problem' in reading ? { field: 'settings.custom_host', message: reading.problem } : null;
}

// The schedule the status checker will follow, refused now rather than at its first use (one parser: domain).
function assertValidTimeRates(rates: Record<string, number> | undefined): void {
  if (rates === undefined) return;
  try {
    parseTimeRates(rates);
  } catch (error) {
    if (!(error instanceof TimeRatesError)) throw error;
    const field = 'settings.gateway_settings.status_checker_time_rates';
    throw new ApiError('invalid_field', 422, `status_checker_time_rates: ${error.message}`, [{ code: 'invalid_field', field, message: error.message }]);
  }
}

// The built-in sandbox gateway: the sandbox adapter authenticates the core by X-SIGNATURE under its own secret, and
// signs its callbacks with it, so that secret is this gateway's sign_key (never a key a request could choose).
function sandboxGatewaySettings(context: AppContext): GatewaySettings {
  const { config } = context;
  const methodSettings = {
    response_timeout: config.sandboxResponseTimeoutS,
    final_waiting_seconds: config.sandboxFinalWaitingS,
    enable_status_checker: true,
  };
  return {
    api_key: 'sandbox',
    sign_key: context.sandboxAdapterSecret,
    sandbox: true,
    validate_signature: true,
    host2host: true,
    gateway_settings: {
      ...sandboxTransportSettings(config),
      methods: {
        pay: methodSettings,
        payout: methodSettings,
        refund: methodSettings,
        status: methodSettings,
        confirm_request: methodSettings,
        decline_request: methodSettings,
        confirm_secure_code: methodSettings,
        resend_otp: methodSettings,
        next_payment_step: methodSettings,
      },
      status_checker_time_rates: config.sandboxStatusRates,
    },
  };
}

// PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: the sandbox adapter over HTTP at its URL, or over RabbitMQ on its queue.
function sandboxTransportSettings(config: AppContext['config']): SandboxTransportSettings {
  if (config.sandboxAdapterTransport === 'http') return { processing_method: 'http_requests', full_link: config.sandboxAdapterUrl };
  const { url, user, password, queue } = config.sandboxRabbit;
  return { processing_method: 'rabbit', rabbit_url: url, rabbit_user: user, rabbit_password: password, rabbit_queue: queue };
}

type SandboxTransportSettings =
  | { processing_method: 'http_requests'; full_link: string }
  | { processing_method: 'rabbit'; rabbit_url: string; rabbit_user: string; rabbit_password: string; rabbit_queue: string };

// The gateway a payment goes through: the one the customer chose on the selector page while it is still active,
// otherwise the merchant's first active gateway of the environment.
export async function resolveGateway(
  context: AppContext,
  merchantId: number,
  environment: Environment,
  chosenGatewayId: number | null = null,
): Promise<ResolvedGateway> {
  if (environment === 'sandbox') {
    return { gatewayId: null, alias: SANDBOX_GATEWAY_ALIAS, settings: sandboxGatewaySettings(context) };
  }
  const chosen = chosenGatewayId === null ? null : await findGateway(context.database.db, merchantId, chosenGatewayId);
  const usable = chosen !== null && chosen.status === 'active' && chosen.environment === environment;
  const gateway = usable ? chosen : await findActiveGateway(context.database.db, merchantId, environment);
  if (!gateway)
    throw new ApiError(
      'no_gateway',
      422,
      'this merchant has no active production gateway: an operator adds one with POST /api/admin/v1/merchants/{id}/gateways',
    );
  return { gatewayId: gateway.id, alias: gateway.alias, settings: unsealSettings(context.masterKey, gateway) };
}

// The gateway a payment was processed through (for status checks and callbacks).
export async function gatewayOfPayment(
  context: AppContext,
  payment: { merchantId: number; gatewayId: number | null; environment: Environment },
  reader: DbOrTx = context.database.db, // a transaction reads through its own connection (PGlite has only one)
): Promise<ResolvedGateway | null> {
  if (payment.gatewayId === null) {
    return payment.environment === 'sandbox' ? { gatewayId: null, alias: SANDBOX_GATEWAY_ALIAS, settings: sandboxGatewaySettings(context) } : null;
  }
  const gateway = await findGatewayById(reader, payment.gatewayId);
  return gateway ? { gatewayId: gateway.id, alias: gateway.alias, settings: unsealSettings(context.masterKey, gateway) } : null;
}
