import type { AppContext } from '../../app-context.ts';
import type { GatewaySettings } from '../contract/gateway-settings.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { findGateway, insertGateway, listGateways, updateGateway, type GatewayRow } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import { assertRoutingRules } from './gateway-routing.ts';
import { assertRunnableSettings, sealSettings } from './gateways.ts';
import type { GatewayRoutingRules } from '../domain/gateway-routing.ts';
import { getMerchant } from './merchants.ts';

export type { GatewayRow };

const notFound = (gatewayId: number) => new ApiError('not_found', 404, `gateway ${gatewayId} not found`);
const aliasTaken = (environment: string, alias: string) =>
  new ApiError('alias_taken', 409, `this merchant already has a ${environment} gateway named ${alias}`);

export interface NewGateway {
  alias: string;
  environment: Environment;
  settings: GatewaySettings;
  routing?: GatewayRoutingRules | null;
}

export async function addGateway(context: AppContext, merchantId: number, input: NewGateway): Promise<GatewayRow> {
  const db = context.database.db;
  await getMerchant(db, merchantId);
  assertRunnableSettings(input.settings);
  if (input.routing) assertRoutingRules(context.currencies, input.routing);
  const gateway = await insertGateway(db, {
    merchantId,
    environment: input.environment,
    alias: input.alias,
    settingsSealed: sealSettings(context.masterKey, input.settings),
    routing: input.routing ?? null,
  });
  if (!gateway) throw aliasTaken(input.environment, input.alias);
  return gateway;
}

export async function listMerchantGateways(context: AppContext, merchantId: number): Promise<GatewayRow[]> {
  await getMerchant(context.database.db, merchantId);
  return listGateways(context.database.db, merchantId);
}

export async function changeGateway(
  context: AppContext,
  merchantId: number,
  gatewayId: number,
  changes: { alias?: string | undefined; settings?: GatewaySettings | undefined; routing?: GatewayRoutingRules | null | undefined },
): Promise<GatewayRow> {
  const db = context.database.db;
  if (changes.settings) assertRunnableSettings(changes.settings);
  if (changes.routing) assertRoutingRules(context.currencies, changes.routing);
  const existing = await findGateway(db, merchantId, gatewayId);
  if (!existing) throw notFound(gatewayId);
  const alias = changes.alias;
  if (alias && alias !== existing.alias) {
    const clash = (await listGateways(db, merchantId)).some((other) => other.environment === existing.environment && other.alias === alias);
    if (clash) throw aliasTaken(existing.environment, alias);
  }
  const gateway = await updateGateway(db, merchantId, gatewayId, {
    ...(alias ? { alias } : {}),
    ...(changes.settings ? { settingsSealed: sealSettings(context.masterKey, changes.settings) } : {}),
    ...(changes.routing === undefined ? {} : { routing: changes.routing }),
  });
  if (!gateway) throw notFound(gatewayId);
  return gateway;
}

export async function setGatewayStatus(context: AppContext, merchantId: number, gatewayId: number, status: GatewayRow['status']): Promise<GatewayRow> {
  const db = context.database.db;
  if (!(await findGateway(db, merchantId, gatewayId))) throw notFound(gatewayId);
  const gateway = await updateGateway(db, merchantId, gatewayId, { status });
  if (!gateway) throw notFound(gatewayId);
  return gateway;
}
