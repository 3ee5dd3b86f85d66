import type { Config } from './config.ts';
import type { AdapterClient } from './gateways/http-adapter-client.ts';
import type { CurrencyTable } from './domain/currencies.ts';
import type { Database } from './store/database.ts';
import type { Environment } from './store/merchants-repo.ts';

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
