import type { Config } from './platform/config.ts';
import type { CurrencyTable } from './platform/lib/currencies.ts';
import type { Database } from './platform/database.ts';
import type { KeyEnvironment } from './platform/lib/merchant-key.ts';
import type { ServiceMetrics } from './platform/lib/service-metrics.ts';

// Everything a request handler may reach, built once at start-up. The modules add what is theirs (payments: its
// adapterClient, in src/payments/index.ts), so this file imports no module and every module may name it.
export interface AppContext {
  config: Config;
  database: Database;
  masterKey: Buffer;
  adminKey: string | null; // null: the admin API answers 401 to every key (operators use /ops)
  currencies: CurrencyTable;
  sandboxAdapterSecret: string; // signs core ↔ sandbox adapter traffic (PAYRAIL_SANDBOX_ADAPTER_SECRET or <data dir>/sandbox-adapter.key)
  metrics?: ServiceMetrics; // absent: nothing is counted (PAYRAIL_METRICS_PORT off)
}

export interface AuthenticatedMerchant {
  merchantId: number;
  environment: KeyEnvironment;
  // the merchant's defaults for a payment created without its own callbackUrl / redirect URLs
  paymentDefaults?: { callbackUrl: string | null; redirectSuccessUrl: string | null; redirectFailUrl: string | null };
}

declare module 'fastify' {
  interface FastifyInstance {
    payrail: AppContext;
  }
}
