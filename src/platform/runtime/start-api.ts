import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app.ts';
import type { Config } from '../config.ts';
import { buildCurrencyTable } from '../lib/currencies.ts';
import { demoValuesPath } from '../lib/openapi-demo-values.ts';
import { DEMO_CORE_USER } from '../lib/openapi-demo-placeholders.ts';
import { seedDemo } from './demo-seed.ts';
import { addDemoOwner, DEMO_OWNER } from '../../back-office/index.ts';
import { loadTls } from '../lib/tls.ts';
import { hasNoMerchants, sweepExpiredIdempotencyKeys } from '../../payments/index.ts';
import { openStore, type OpenedStore } from './open-store.ts';
import { openDatabase, type Database } from '../database.ts';
import { countCommits } from '../lib/commit-observer.ts';
import { createAdapterClient } from '../../payments/index.ts';
import { startWorkers, type RunningWorkers } from '../../workers/runner.ts';
import { demoMerchantKeyPath, writeDemoMerchantKey } from './demo-key-file.ts';
import { loadSecrets } from './secrets.ts';
import { boundPort, publishServerAddress, serverAddressOf } from './server-address-file.ts';
import { serveSandboxOverRabbit } from './start-sandbox-adapter.ts';
import type { RabbitServer } from '@payrail/adapter-kit';
import { observeService, type ObservedService } from './metrics-listener.ts';

const IDEMPOTENCY_SWEEP_INTERVAL_MS = 60 * 60 * 1000;
// The in-process worker's own connections to PostgreSQL: behind the api's busy pool its claims and records queued
// behind every request, and under load the merchants' notifications fell behind the approvals.
const WORKER_DB_POOL_MAX = 4;

export interface RunningApi {
  app: FastifyInstance;
  url: string;
  stop(): Promise<void>;
}

export interface Roles {
  api: boolean;
  worker: boolean;
}

// `opened` is a store its caller already opened (the tests' harness hands over an emptied in-memory PGlite); the
// running service closes it when it stops, like its own.
export async function startApi(
  config: Config,
  print: (line: string) => void,
  roles: Roles = { api: true, worker: true },
  opened?: OpenedStore,
): Promise<RunningApi> {
  const secrets = loadSecrets(config);
  const store = opened ?? (await openStore(config));
  let app: FastifyInstance | null = null;
  let workers: RunningWorkers | null = null;
  let workerDatabase: Database | null = null;
  let sandboxRabbit: RabbitServer | null = null;
  let observed: ObservedService | null = null;
  const tls = config.trustProxy ? null : await loadTls(config.dataDir, config.tlsCertPath, config.tlsKeyPath);
  // counted from the start; served on a listener of its own once the service listens (metrics-listener.ts)
  if (config.metrics) observed = observeService(config.metrics, store.database.db, { ledgerChecks: roles.worker });
  // Our own certificate is trusted for adapter calls: the in-process sandbox is reached over HTTPS like any adapter.
  const adapterClient = createAdapterClient({ extraCa: tls ? [tls.cert] : [], ...(observed ? { metrics: observed.metrics } : {}) });
  try {
    const context = {
      config,
      database: store.database,
      masterKey: secrets.masterKey,
      adminKey: secrets.adminKey,
      currencies: buildCurrencyTable(config.extraCurrencies),
      adapterClient,
      sandboxAdapterSecret: secrets.sandboxAdapterSecret,
      ...(observed ? { metrics: observed.metrics } : {}),
    };
    app = await buildApp(context, { https: tls && { cert: tls.cert, key: tls.key }, api: roles.api });
    if (roles.worker) {
      workerDatabase =
        roles.api && config.databaseUrl ? await openDatabase({ engine: 'postgres', url: config.databaseUrl, poolMax: WORKER_DB_POOL_MAX }) : null;
      if (workerDatabase && observed) countCommits(workerDatabase.db, observed.metrics); // what the worker's transactions finalize counts too
      workers = startWorkers({ context: workerDatabase ? { ...context, database: workerDatabase } : context, adapterClient }, app.log, config.workerPollMs);
    }
    await app.listen({ host: config.host, port: config.port });
    // The in-process sandbox answers its gateway over RabbitMQ too when that is how the gateway reaches it.
    if (roles.api && config.sandboxAdapterTransport === 'rabbit') sandboxRabbit = await serveSandboxOverRabbit(app, config, '/sandbox-adapter');
    const port = boundPort(app.server, config.port);
    const url = tls ? `https://${displayHost(config.host)}:${port}` : `http://${displayHost(config.host)}:${port}`;
    print(`Payrail is listening on ${url} (${store.database.engine}${tls ? '' : ', plain HTTP behind a TLS proxy'})`);
    if (roles.api) print(`Merchant dashboard: ${url}/dashboard (sign-up ${config.signUp})`);
    if (roles.api) print(`Operator console: ${url}/ops (the first operator: npm run -s payrail -- operator create --email you@example.com --role admin)`);
    const metricsUrl = observed ? await observed.listen(app.log) : null;
    if (metricsUrl !== null) print(`Prometheus metrics: ${metricsUrl} (a listener of their own, PAYRAIL_METRICS_PORT)`);
    if (tls) print(`TLS certificate${tls.selfSigned ? ' (self-signed, in the data folder)' : ''} SHA-256 fingerprint: ${tls.fingerprint256}`);
    if (secrets.adminKeyCreatedAt) print(`Admin key (shown once; kept in ${secrets.adminKeyCreatedAt}): ${secrets.adminKey}`);
    // The demo data includes a person whose password the docs print: never under NODE_ENV=production.
    const demoAllowed = store.brandNew && config.demoMerchant && config.nodeEnv !== 'production';
    if (demoAllowed && secrets.adminKey !== null && (await hasNoMerchants(store.database.db))) {
      await printDemoMerchant(app, store.database.db, { masterKey: secrets.masterKey, adminKey: secrets.adminKey }, config, print);
    }
    const sweep = setInterval(() => {
      sweepExpiredIdempotencyKeys(store.database.db).catch((error: unknown) => app?.log.warn({ err: error }, 'idempotency sweep failed'));
    }, IDEMPOTENCY_SWEEP_INTERVAL_MS);
    sweep.unref();
    const removeServerAddress = roles.api ? publishServerAddress(config.dataDir, serverAddressOf(config, tls, url, port)) : () => {};
    const running = app;
    return {
      app: running,
      url,
      stop: async () => {
        removeServerAddress();
        clearInterval(sweep);
        await sandboxRabbit?.close();
        await workers?.stop();
        await workerDatabase?.close();
        await observed?.close();
        await running.close();
        await adapterClient.close();
        await store.close();
      },
    };
  } catch (error) {
    await sandboxRabbit?.close();
    await workers?.stop();
    await workerDatabase?.close();
    await observed?.close();
    await app?.close().catch(() => {});
    await adapterClient.close();
    await store.close();
    throw error;
  }
}

async function printDemoMerchant(
  app: FastifyInstance,
  db: Parameters<typeof seedDemo>[1],
  secrets: { masterKey: Buffer; adminKey: string },
  config: Config,
  print: (line: string) => void,
): Promise<void> {
  const demo = await seedDemo(app, db, secrets.masterKey, secrets.adminKey, config);
  const caFlag = config.tlsCertPath ? '' : ` --cacert ${config.dataDir}/tls/cert.pem`;
  print(`Demo merchant #${demo.merchantId} created. Its sandbox key (shown once): ${demo.sandboxKey}`);
  writeDemoMerchantKey(config.dataDir, demo.sandboxKey);
  print(`(kept in ${demoMerchantKeyPath(config.dataDir)}, mode 0600, for the README's quick start)`);
  await addDemoOwner(db, demo.merchantId, config.passwordScryptLogN);
  print(
    `Dashboard sign-in of the demo merchant: ${config.publicUrl}/dashboard/login as ${DEMO_OWNER.email}, password "${DEMO_OWNER.password}"` +
      ' (the e-mailed code is written to this log, and shown by `npm run payrail -- outbox`)',
  );
  if (demo.failure === null) {
    print(`Demo data for the examples of ${config.publicUrl}/docs: an approved payment ${demo.values.approvedPaymentToken}, a balance, a refund, a dispute`);
    print(`and a core banking person (login ${DEMO_CORE_USER.email}, password "${DEMO_CORE_USER.password}"); listed in ${demoValuesPath(config.dataDir)}.`);
  } else {
    print(`Demo data for the examples was not (all) created: ${demo.failure}`);
  }
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
