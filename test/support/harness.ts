import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.ts';
import { loadConfig, type Config } from '../../src/platform/config.ts';
import { buildCurrencyTable } from '../../src/platform/lib/currencies.ts';
import { randomBase64Url } from '../../src/platform/lib/crypto.ts';
import { createAdapterClient } from '../../src/payments/gateways/http-adapter-client.ts';
import type { Database, Engine } from '../../src/platform/database.ts';
import { openTestDatabase } from './databases.ts';

export interface TestMerchant {
  id: number;
  sandboxKey: string;
  productionKey: string;
}

export interface Harness {
  engine: Engine;
  app: FastifyInstance;
  database: Database;
  config: Config;
  adminKey: string;
  createMerchant(name?: string): Promise<TestMerchant>;
  merchantRequest(key: string, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export const PUBLIC_URL = 'https://pay.test';
const SANDBOX_ADAPTER_SECRET = 'sandbox-adapter-secret-for-tests'; // exactly 32 characters

// The real app on a real database, driven through inject(): nothing of ours is mocked.
export async function startHarness(engine: Engine, environment: Record<string, string> = {}, buildOptions: BuildOptions = {}): Promise<Harness> {
  // Production callback URLs are checked against DNS, which this sandboxed machine lacks: tests use example domains.
  const config = loadConfig({
    PAYRAIL_PUBLIC_URL: PUBLIC_URL,
    PAYRAIL_DATA_DIR: '/nonexistent-test-data',
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1',
    PAYRAIL_PASSWORD_SCRYPT_LOG_N: '10', // 32 times cheaper than production's 15: sign-ins were a large share of the suite's CPU
    ...environment,
  });
  const { database, drop } = await openTestDatabase(engine);
  const adminKey = `adm_${randomBase64Url(32)}`;
  const app = await buildApp(
    {
      config,
      database,
      masterKey: Buffer.alloc(32, 7),
      adminKey,
      currencies: buildCurrencyTable(config.extraCurrencies),
      adapterClient: createAdapterClient(),
      sandboxAdapterSecret: SANDBOX_ADAPTER_SECRET,
    },
    { logger: false, ...buildOptions },
  );
  await app.ready();
  const harness: Harness = {
    engine,
    app,
    database,
    config,
    adminKey,
    async createMerchant(name = 'Test merchant') {
      const response = await app.inject({
        method: 'POST',
        url: '/api/admin/v1/merchants',
        headers: { authorization: `Bearer ${adminKey}` },
        payload: { name },
      });
      if (response.statusCode !== 200) throw new Error(`merchant create failed: ${response.body}`);
      const merchant = response.json().merchant as { id: number; sandbox_key: string; production_key: string };
      return { id: merchant.id, sandboxKey: merchant.sandbox_key, productionKey: merchant.production_key };
    },
    merchantRequest(key, options) {
      return app.inject({ ...options, headers: { authorization: `Bearer ${key}`, ...options.headers } });
    },
    async close() {
      await app.close();
      await drop();
    },
  };
  return harness;
}

export const validPaymentA = {
  product: 'Order #1001',
  amount: 1000,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
  redirectSuccessUrl: 'https://merchant.example/ok',
  redirectFailUrl: 'https://merchant.example/fail',
  orderNumber: 'order-1001',
  locale: 'en',
};
