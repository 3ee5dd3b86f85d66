import type { Config } from './platform/config.ts';
import type { AdapterClient } from './payments/gateways/http-adapter-client.ts';
import type { CurrencyTable } from './platform/lib/currencies.ts';
import type { Database } from './platform/database.ts';
import type { Environment } from './payments/store/merchants-repo.ts';

// Everything a request handler may reach, built once at start-up.
export interface AppContext {
  config: Config;
  database: Database;
  masterKey: Buffer;
  adminKey: string;
  currencies: CurrencyTable;
  adapterClient: AdapterClient;
  sandboxAdapterSecret: string; // signs core ↔ sandbox adapter traffic (PAYRAIL_SANDBOX_ADAPTER_SECRET or <data dir>/sandbox-adapter.key)
}

export interface AuthenticatedMerchant {
  merchantId: number;
  environment: Environment;
}

declare module 'fastify' {
  interface FastifyInstance {
    payrail: AppContext;
  }
}
