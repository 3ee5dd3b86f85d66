import { readFileSync } from 'node:fs';
import Type from 'typebox';
import { answerPart, GatewaySummary } from './admin-answers.ts';
import { errorMessage, isJsonObject } from '../platform/lib/type-guards.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

const SETTINGS_FILE_BYTES_MAX = 2 * 1024 * 1024;

export interface GatewayCommandOptions {
  merchant?: string | undefined;
  id?: string | undefined;
  alias?: string | undefined;
  environment?: string | undefined;
  settings?: string | undefined; // the spec 2.10 settings block as JSON
  settingsFile?: string | undefined; // a file holding that JSON
  routing?: string | undefined; // the gateway's routing rules as JSON (null on update removes them)
  json: boolean;
}

// The gateway update route is a PUT; AdminClient passes any method through to the server.
interface GatewayAdminCalls {
  call(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<Record<string, unknown>>;
}

export async function runGatewayCommand(
  client: AdminClient,
  action: string | undefined,
  options: GatewayCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  const admin: GatewayAdminCalls = client;
  switch (action) {
    case 'add': {
      const merchantId = requireMerchant(options);
      if (!options.alias) throw new CliError('gateway add needs --alias <name>');
      const environment = options.environment;
      if (environment !== 'sandbox' && environment !== 'production') {
        throw new CliError('gateway add needs --environment sandbox|production');
      }
      const settings = readSettings(options);
      if (settings === undefined) throw new CliError('gateway add needs --settings <JSON> or --settings-file <path>');
      const routing = readRouting(options, false);
      const answer = await admin.call('POST', `/merchants/${merchantId}/gateways`, {
        alias: options.alias,
        environment,
        settings,
        ...(routing === undefined ? {} : { routing }),
      });
      const gateway = answerPart(answer, 'gateway', GatewaySummary);
      if (options.json) return print(JSON.stringify(gateway));
      return print(`Gateway #${gateway.id} "${gateway.alias}" (${gateway.environment}) added to merchant #${gateway.merchant_id}.`);
    }
    case 'list': {
      const merchantId = requireMerchant(options);
      const answer = await admin.call('GET', `/merchants/${merchantId}/gateways`);
      const gateways = answerPart(answer, 'gateways', Type.Array(GatewaySummary));
      if (options.json) return print(JSON.stringify(gateways));
      for (const gateway of gateways) print(describe(gateway));
      if (gateways.length === 0) print(`merchant #${merchantId} has no gateways yet: payrail gateway add --merchant ${merchantId} …`);
      return;
    }
    case 'update': {
      const path = gatewayPath(options);
      const settings = readSettings(options);
      const routing = readRouting(options, true);
      if (settings === undefined && !options.alias && routing === undefined) {
        throw new CliError('gateway update needs --settings <JSON>, --settings-file <path>, --alias <name> or --routing <JSON>');
      }
      const answer = await admin.call('PUT', path, {
        ...(options.alias ? { alias: options.alias } : {}),
        ...(settings === undefined ? {} : { settings }),
        ...(routing === undefined ? {} : { routing }),
      });
      const gateway = answerPart(answer, 'gateway', GatewaySummary);
      return print(options.json ? JSON.stringify(gateway) : describe(gateway));
    }
    case 'disable':
    case 'enable': {
      const answer = await admin.call('POST', `${gatewayPath(options)}/${action}`);
      const gateway = answerPart(answer, 'gateway', GatewaySummary);
      return print(options.json ? JSON.stringify(gateway) : describe(gateway));
    }
    default:
      throw new CliError(`unknown gateway command "${action ?? ''}": add | list | update | disable | enable`);
  }
}

// The settings block, parsed here so that a typo is reported before anything is sent.
function readSettings(options: GatewayCommandOptions): unknown {
  if (options.settings !== undefined && options.settingsFile !== undefined) {
    throw new CliError('give --settings or --settings-file, not both');
  }
  if (options.settingsFile !== undefined) {
    let text: string;
    try {
      text = readFileSync(options.settingsFile, 'utf8');
    } catch (error) {
      throw new CliError(`cannot read --settings-file ${options.settingsFile}: ${errorMessage(error)}`);
    }
    if (Buffer.byteLength(text) > SETTINGS_FILE_BYTES_MAX) throw new CliError('--settings-file is larger than 2 MiB');
    return parseSettings(text, `--settings-file ${options.settingsFile}`);
  }
  if (options.settings !== undefined) return parseSettings(options.settings, '--settings');
  return undefined;
}

function parseSettings(text: string, source: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new CliError(`${source} is not valid JSON: ${errorMessage(error)}`);
  }
  if (!isJsonObject(value)) throw new CliError(`${source} must be a JSON object (spec 2.10 settings)`);
  return value;
}

// The routing rules (docs: routing among gateways), checked for JSON here and for their rules by the server.
function readRouting(options: GatewayCommandOptions, nullAllowed: boolean): Record<string, unknown> | null | undefined {
  if (options.routing === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(options.routing);
  } catch (error) {
    throw new CliError(`--routing is not valid JSON: ${errorMessage(error)}`);
  }
  if (value === null && nullAllowed) return null;
  if (!isJsonObject(value)) {
    throw new CliError(`--routing must be a JSON object${nullAllowed ? ' (or null to remove the rules)' : ''}`);
  }
  return value;
}

function requireMerchant(options: GatewayCommandOptions): number {
  const id = Number(options.merchant);
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError('this command needs --merchant <merchant id>');
  return id;
}

function gatewayPath(options: GatewayCommandOptions): string {
  const merchantId = requireMerchant(options);
  const gatewayId = Number(options.id);
  if (!Number.isSafeInteger(gatewayId) || gatewayId < 1) throw new CliError('this command needs --id <gateway id>');
  return `/merchants/${merchantId}/gateways/${gatewayId}`;
}

function describe(gateway: GatewaySummary): string {
  const fullLink = gateway.settings.gateway_settings?.full_link ?? '-';
  return `#${gateway.id}\t${gateway.status}\t${gateway.environment}\t${gateway.alias}\t${fullLink}\tcreated ${gateway.created_at}`;
}
