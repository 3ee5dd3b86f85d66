import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { buildCurrencyTable } from '../domain/currencies.ts';
import { createMerchant } from '../flows/merchants.ts';
import { loadTls } from '../lib/tls.ts';
import { deleteExpiredIdempotencyKeys } from '../store/idempotency-repo.ts';
import { countMerchants } from '../store/merchants-repo.ts';
import { openStore } from './open-store.ts';
import { createAdapterClient } from '../gateways/http-adapter-client.ts';
import { startWorkers, type RunningWorkers } from '../workers/runner.ts';
import { loadSecrets } from './secrets.ts';
import { serveSandboxOverRabbit } from './start-sandbox-adapter.ts';
import type { RabbitServer } from '../../packages/adapter-kit/src/rabbit-server.ts';

const IDEMPOTENCY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

export interface Roles {
  api: boolean;
  worker: boolean;
}

export async function startApi(config: Config, print: (line: string) => void, roles: Roles = { api: true, worker: true }): Promise<RunningApi> {
  const secrets = loadSecrets(config);
  const store = await openStore(config);
  let app: FastifyInstance | null = null;
  let workers: RunningWorkers | null = null;
  let sandboxRabbit: RabbitServer | null = null;
  const tls = config.trustProxy ? null : await loadTls(config.dataDir, config.tlsCertPath, config.tlsKeyPath);
  // Our own certificate is trusted for adapter calls: the in-process sandbox is reached over HTTPS like any adapter.
  const adapterClient = createAdapterClient({ extraCa: tls ? [tls.cert] : [] });
  try {
    const context = {
      config,
      database: store.database,
      masterKey: secrets.masterKey,
      adminKey: secrets.adminKey,
      currencies: buildCurrencyTable(config.extraCurrencies),
      adapterClient,
      sandboxAdapterSecret: secrets.sandboxAdapterSecret,
    };
    app = await buildApp(context, { https: tls && { cert: tls.cert, key: tls.key }, api: roles.api });
    if (roles.worker) workers = startWorkers({ context, adapterClient }, app.log, config.workerPollMs);
    await app.listen({ host: config.host, port: config.port });
    // The in-process sandbox answers its gateway over RabbitMQ too when that is how the gateway reaches it.
    if (roles.api && config.sandboxAdapterTransport === 'rabbit') sandboxRabbit = await serveSandboxOverRabbit(app, config, '/sandbox-adapter');
    const url = tls ? `https://${displayHost(config.host)}:${config.port}` : `http://${displayHost(config.host)}:${config.port}`;
    print(`Payrail is listening on ${url} (${store.database.engine}${tls ? '' : ', plain HTTP behind a TLS proxy'})`);
    if (tls) print(`TLS certificate${tls.selfSigned ? ' (self-signed, in the data folder)' : ''} SHA-256 fingerprint: ${tls.fingerprint256}`);
    if (secrets.adminKeyCreatedAt) print(`Admin key (shown once; kept in ${secrets.adminKeyCreatedAt}): ${secrets.adminKey}`);
    if (store.brandNew && config.demoMerchant && (await countMerchants(store.database.db)) === 0) {
      await printDemoMerchant(store.database.db, secrets.masterKey, config, print);
    }
    const sweep = setInterval(() => {
      deleteExpiredIdempotencyKeys(store.database.db).catch((error: unknown) => app?.log.warn({ err: error }, 'idempotency sweep failed'));
    }, IDEMPOTENCY_SWEEP_INTERVAL_MS);
    sweep.unref();
    const running = app;
    return {
      app: running,
      url,
      stop: async () => {
        clearInterval(sweep);
        await sandboxRabbit?.close();
        await workers?.stop();
        await running.close();
        await adapterClient.close();
        await store.close();
      },
    };
  } catch (error) {
    await sandboxRabbit?.close();
    await workers?.stop();
    await app?.close().catch(() => {});
    await adapterClient.close();
    await store.close();
    throw error;
  }
}

async function printDemoMerchant(db: Parameters<typeof createMerchant>[0], masterKey: Buffer, config: Config, print: (line: string) => void): Promise<void> {
  const demo = await createMerchant(db, masterKey, 'Demo merchant');
  const caFlag = config.tlsCertPath ? '' : ` --cacert ${config.dataDir}/tls/cert.pem`;
  print(`Demo merchant #${demo.merchant.id} created. Its sandbox key (shown once): ${demo.sandboxKey}`);
  print('Create a payment:');
  print(
    `  curl${caFlag} ${config.publicUrl}/api/v1/payments -H "Authorization: Bearer ${demo.sandboxKey}" ` +
      `-H "Content-Type: application/json" -d '{"product":"Demo order","amount":1000,"currency":"USD",` +
      `"callbackUrl":"https://example.com/payrail-callback"}'`,
  );
}

function displayHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return 'localhost';
  return host.includes(':') ? `[${host}]` : host;
}
