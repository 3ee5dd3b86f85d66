import type { AppContext } from '../../app-context.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { GatewaySettings } from '../contract/gateway-settings.ts';
import { findGatewayById, type GatewayRow } from '../store/gateways-repo.ts';
import { unsealSettings } from './gateways.ts';

export interface GatewayWithSettings {
  gateway: GatewayRow;
  settings: GatewaySettings; // unsealed, secrets and all: for a form that shows none of them (back-office gateway-form.ts)
}

// One gateway by its id alone (the operator console's gateway page), with its settings.
export async function getGatewayWithSettings(context: Pick<AppContext, 'database' | 'masterKey'>, gatewayId: number): Promise<GatewayWithSettings> {
  const gateway = await findGatewayById(context.database.db, gatewayId);
  if (!gateway) throw new ApiError('not_found', 404, `gateway ${gatewayId} not found`);
  return { gateway, settings: unsealSettings(context.masterKey, gateway) };
}
