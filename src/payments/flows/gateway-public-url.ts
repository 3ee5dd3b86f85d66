import type { AppContext } from '../../app-context.ts';
import { gatewayPublicUrl } from '../domain/custom-host.ts';
import { listGateways } from '../store/gateways-repo.ts';
import type { Environment } from '../store/merchants-repo.ts';
import { unsealSettings } from './gateways.ts';

// The base of the URLs given out for a payment that went through the merchant's gateway `alias` (spec 2.10
// custom_host): the gateway's custom host, else PAYRAIL_PUBLIC_URL. The built-in sandbox gateway has none.
export async function publicUrlOfGateway(
  context: AppContext,
  merchant: { merchantId: number; environment: Environment },
  alias: string | null,
): Promise<string> {
  const publicUrl = context.config.publicUrl;
  if (alias === null || merchant.environment === 'sandbox') return publicUrl;
  const gateway = (await listGateways(context.database.db, merchant.merchantId)).find((row) => row.alias === alias && row.environment === merchant.environment);
  return gateway === undefined ? publicUrl : gatewayPublicUrl(publicUrl, unsealSettings(context.masterKey, gateway).custom_host);
}
