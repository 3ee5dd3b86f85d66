// Payrail as `npm run bench:cost` measures it: an api process, a worker process and the sandbox acquirer as a
// process of its own (reached over HTTPS, as a real acquirer would be), on a database of the private cluster.
// Each process connects as a database role of its own, so pg_stat_statements tells whose statements are whose.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { loadTls } from '../../src/platform/lib/tls.ts';
import type { CleanupStack } from './cleanup.ts';
import type { Source } from './cost-figures.ts';
import type { ServerSession } from './measure.ts';
import type { PrivatePostgres } from './private-postgres.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));
export const COST_DATABASE = 'payrail_cost';
const POOL_MAX = '10'; // per process; the three together stay far under the cluster's max_connections
const RATE_LIMIT_UNREACHED = '100000000'; // the limiter still counts every request, it never refuses one

// The database role each process connects as, and the source its statements are reported under.
export const SOURCE_OF_ROLE: Readonly<Record<string, Source>> = { payrail_api: 'api', payrail_worker: 'worker', sandbox_acquirer: 'acquirer' };

export interface CostTopology {
  session: ServerSession;
  pids: Record<Source, number>;
}

// The roles (superusers: the cluster is the bench's alone and deleted afterwards), Payrail's database and
// pg_stat_statements, the last in the maintenance database so that Payrail's schema stays as it ships.
export async function prepareCostDatabase(cluster: PrivatePostgres): Promise<void> {
  for (const role of Object.keys(SOURCE_OF_ROLE)) await cluster.query('postgres', `create role ${role} login superuser`);
  await cluster.query('postgres', `create database ${COST_DATABASE} owner payrail_api`);
  await cluster.query('postgres', 'create extension pg_stat_statements');
}

async function createMerchant(server: ServerProcess, adminKey: string): Promise<string> {
  const response = await request(`${server.url}/api/admin/v1/merchants`, {
    method: 'POST',
    dispatcher: server.agent,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Cost per payment' }),
  });
  const text = await response.body.text();
  const sandboxKey = (JSON.parse(text) as { merchant?: { sandbox_key?: unknown } }).merchant?.sandbox_key;
  if (response.statusCode !== 200 || typeof sandboxKey !== 'string') throw new Error(`creating the merchant answered ${response.statusCode}: ${text}`);
  return sandboxKey;
}

export async function startCostTopology(cluster: PrivatePostgres, cleanup: CleanupStack): Promise<CostTopology> {
  const workDir = mkdtempSync(join(tmpdir(), 'payrail-bench-cost-'));
  cleanup.defer(`remove ${workDir}`, () => rmSync(workDir, { recursive: true, force: true }));
  const tlsDir = join(workDir, 'tls-source');
  await loadTls(tlsDir, null, null); // one self-signed certificate (localhost, 127.0.0.1) for every process
  const [apiPort, workerPort, acquirerPort] = [await freePort(), await freePort(), await freePort()];
  const adminKey = `adm_cost_${randomBytes(24).toString('hex')}`;
  const shared: Record<string, string> = {
    HOST: '127.0.0.1',
    PAYRAIL_DB_POOL_MAX: POOL_MAX,
    PAYRAIL_PUBLIC_URL: `https://localhost:${apiPort}`,
    PAYRAIL_TLS_CERT: join(tlsDir, 'tls', 'cert.pem'),
    PAYRAIL_TLS_KEY: join(tlsDir, 'tls', 'key.pem'),
    PAYRAIL_MASTER_KEY: randomBytes(32).toString('hex'),
    PAYRAIL_ADMIN_KEY: adminKey,
    PAYRAIL_SANDBOX_ADAPTER_SECRET: randomBytes(16).toString('hex'),
    PAYRAIL_SANDBOX_ADAPTER_URL: `https://127.0.0.1:${acquirerPort}/sandbox-adapter`,
    PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1', // the notification receiver listens on 127.0.0.1
    PAYRAIL_DEMO_MERCHANT: '0',
    PAYRAIL_LOG_LEVEL: 'warn',
    PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: RATE_LIMIT_UNREACHED,
    PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: RATE_LIMIT_UNREACHED,
  };
  const launch = (name: string, role: string, port: number, databaseRole: string) => {
    const dataDir = join(workDir, name);
    mkdirSync(dataDir, { mode: 0o700 });
    return startServer(
      {
        name,
        cwd: projectRoot,
        args: ['src/main.ts', 'start', '--role', role],
        port,
        dataDir: tlsDir, // where startServer finds the certificate to trust
        env: { ...shared, PORT: String(port), PAYRAIL_DATA_DIR: dataDir, DATABASE_URL: cluster.urlOf(COST_DATABASE, databaseRole) },
      },
      cleanup,
    );
  };
  const api = await launch('api', 'api', apiPort!, 'payrail_api'); // first: it migrates the new database
  const [worker, acquirer] = await Promise.all([
    launch('worker', 'worker', workerPort!, 'payrail_worker'),
    launch('acquirer', 'sandbox-adapter', acquirerPort!, 'sandbox_acquirer'),
  ]);
  const merchantKey = await createMerchant(api, adminKey);
  return {
    session: { url: api.url, agent: api.agent, merchantKey },
    pids: { api: api.pid, worker: worker.pid, acquirer: acquirer.pid },
  };
}
