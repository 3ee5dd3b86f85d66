import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { generateMerchantKey } from '../../src/platform/lib/merchant-key.ts';
import { BASELINE_MERCHANT_KEY_FILE, type PayrailLayer } from './baseline-app.ts';
import { newBenchDatabase } from './bench-databases.ts';
import type { CleanupStack } from './cleanup.ts';
import { postgresCpuMs, processCpuMs } from './cpu-time.ts';
import { runLoad, type LoadFigures } from './load.ts';
import type { EngineName, ServerName } from './report.ts';
import { freePort, startServer, type ServerProcess } from './server-process.ts';
import type { ScenarioName, Settings } from './settings.ts';

const projectRoot = fileURLToPath(new URL('../..', import.meta.url));

// The body: variant A, redirect flow.
export const PAYMENT_BODY_A = JSON.stringify({
  product: 'Bench order',
  amount: 1000,
  currency: 'USD',
  callbackUrl: 'https://merchant.example/callback',
  redirectSuccessUrl: 'https://merchant.example/ok',
  redirectFailUrl: 'https://merchant.example/fail',
  orderNumber: 'bench-1',
  locale: 'en',
});

// What the load sends and what it expects back.
export interface Workload {
  scenario: ScenarioName;
  path?: string; // /api/v1/payments when absent
  body: string;
  expectedBody?: (body: string) => boolean; // refused 2xx bodies are counted (LoadFigures.unexpected2xx)
  notificationCount?: () => number; // read before and after the measured run
  // Runs once the server is up, before the warm-up (e.g. approved payments to refund); returns a generator of
  // per-request bodies, or null to send `body` every time.
  seed?: (session: ServerSession) => Promise<(() => string) | null>;
}

// The running server, as a seed sees it.
export interface ServerSession {
  url: string;
  agent: ServerProcess['agent'];
  merchantKey: string;
}

export const CREATE_WORKLOAD: Workload = { scenario: 'create', body: PAYMENT_BODY_A };

export interface Target {
  engine: EngineName;
  server: ServerName;
  layers: readonly PayrailLayer[]; // baseline only: Payrail layers added back (bench/probe.ts)
  label: string; // names the server in progress lines and profile files
  workload?: Workload; // CREATE_WORKLOAD when absent
}

export interface Measured {
  figures: LoadFigures;
  serverCpuUsPerRequest: number | null; // the server process's CPU time over the measured run, per request
  postgresCpuUsPerRequest: number | null; // all PostgreSQL processes, machine-wide
  notificationsReceived: number | null; // during the measured run, when the workload counts them
}

const UNEXPECTED_BODY_CHARS_MAX = 500;
const RATE_LIMIT_UNREACHED = 100_000_000; // the configuration's maximum, per window
const SHUTDOWN_SETTLE_MS = 3000; // longer than the H2H p99 latency under load

interface Started {
  running: ServerProcess;
  merchantKey: string;
  ca: string;
  release(): Promise<void>;
}

async function createPayrailMerchant(server: ServerProcess, adminKey: string): Promise<string> {
  const response = await request(`${server.url}/api/admin/v1/merchants`, {
    method: 'POST',
    dispatcher: server.agent,
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench' }),
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`creating the bench merchant answered ${response.statusCode}: ${text}`);
  const sandboxKey = (JSON.parse(text) as { merchant?: { sandbox_key?: unknown } }).merchant?.sandbox_key;
  if (typeof sandboxKey !== 'string') throw new Error(`creating the bench merchant returned no sandbox_key: ${text}`);
  return sandboxKey;
}

const SCRIPT_OF_SERVER: Readonly<Record<ServerName, string[]>> = {
  payrail: ['src/main.ts', 'start'],
  baseline: ['bench/baseline-server.ts'],
  'h2h-baseline': ['bench/h2h-baseline-server.ts'],
};

// The key the load sends. The H2H baseline looks up no key: it gets a fresh sandbox key, so that its requests carry
// the same bytes as Payrail's.
async function merchantKeyOf(server: ServerName, running: ServerProcess, adminKey: string, dataDir: string): Promise<string> {
  if (server === 'payrail') return createPayrailMerchant(running, adminKey);
  if (server === 'baseline') return readFileSync(join(dataDir, BASELINE_MERCHANT_KEY_FILE), 'utf8');
  return generateMerchantKey('sandbox');
}

// A fresh data folder, a fresh database (PostgreSQL) and the server process; each registered for cleanup.
async function launch(target: Target, settings: Settings, cleanup: CleanupStack): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), `payrail-bench-${target.engine}-${target.server}-`));
  const removeDataDir = cleanup.defer(`remove ${dataDir}`, () => rmSync(dataDir, { recursive: true, force: true }));
  const database = target.engine === 'postgres' ? newBenchDatabase() : null;
  const dropDatabase = database ? cleanup.defer(`drop database ${database.name}`, database.drop) : async () => {};
  await database?.create();
  const adminKey = `adm_bench_${randomBytes(24).toString('hex')}`;
  const script = SCRIPT_OF_SERVER[target.server];
  const profileName = `${target.engine}-${target.label.replace(/[^A-Za-z0-9.-]+/g, '_')}.cpuprofile`;
  const profiling = settings.cpuProfileDir ? ['--cpu-prof', '--cpu-prof-dir', settings.cpuProfileDir, `--cpu-prof-name=${profileName}`] : [];
  const port = await freePort();
  const running = await startServer(
    {
      name: `${target.label} (${target.engine})`,
      cwd: projectRoot,
      args: [...profiling, ...script],
      port,
      dataDir,
      env: {
        PORT: String(port),
        HOST: '127.0.0.1',
        PAYRAIL_DATA_DIR: dataDir,
        PAYRAIL_ADMIN_KEY: adminKey,
        PAYRAIL_LOG_LEVEL: 'warn',
        PAYRAIL_DEMO_MERCHANT: '0',
        // The sandbox adapter URL derives from it, and the self-signed certificate names localhost. Set for
        // every server alike, so the create rows and the H2H row run one configuration.
        PAYRAIL_PUBLIC_URL: `https://localhost:${port}`,
        // The notification receiver listens on 127.0.0.1, which only this setting lets a callbackUrl name; it also
        // skips the callbackUrl's DNS check, which would time the resolver, not Payrail.
        PAYRAIL_ALLOW_PRIVATE_CALLBACKS: 'true',
        // One client sends every request with one key from one address: limits far above the load keep the limiter's
        // bookkeeping on the measured path without refusing anything (0 would switch it off).
        PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: String(RATE_LIMIT_UNREACHED),
        PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: String(RATE_LIMIT_UNREACHED),
        ...(database ? { DATABASE_URL: database.url } : {}),
        ...(target.layers.length > 0 ? { BENCH_BASELINE_LAYERS: target.layers.join(',') } : {}),
      },
    },
    cleanup,
  );
  const merchantKey = await merchantKeyOf(target.server, running, adminKey, dataDir);
  return {
    running,
    merchantKey,
    ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8'),
    release: async () => {
      await running.stop();
      await dropDatabase();
      await removeDataDir();
    },
  };
}

const perRequestUs = (beforeMs: number | null, afterMs: number | null, requests: number) =>
  beforeMs === null || afterMs === null || requests === 0 ? null : ((afterMs - beforeMs) * 1000) / requests;

// Starts the target alone, warms it up, measures one run and stops it again.
export async function measureTarget(target: Target, settings: Settings, cleanup: CleanupStack, print: (line: string) => void): Promise<Measured> {
  const workload = target.workload ?? CREATE_WORKLOAD;
  const started = await launch(target, settings, cleanup);
  try {
    let firstUnexpectedBody: string | null = null;
    const expectedBody = workload.expectedBody;
    const nextBody = workload.seed ? await workload.seed({ url: started.running.url, agent: started.running.agent, merchantKey: started.merchantKey }) : null;
    const plan = {
      url: `${started.running.url}${workload.path ?? '/api/v1/payments'}`,
      headers: { authorization: `Bearer ${started.merchantKey}`, 'content-type': 'application/json' },
      body: workload.body,
      ...(nextBody ? { nextBody } : {}),
      connections: settings.connections,
      ca: started.ca,
      ...(expectedBody
        ? {
            expectedBody: (body: string) => {
              const expected = expectedBody(body);
              if (!expected) firstUnexpectedBody ??= body.slice(0, UNEXPECTED_BODY_CHARS_MAX);
              return expected;
            },
          }
        : {}),
    };
    if (settings.warmupS > 0) {
      print(`${target.engine} ${target.label}: warm-up ${settings.warmupS} s`);
      await runLoad({ ...plan, durationS: settings.warmupS });
    }
    print(`${target.engine} ${target.label}: ${settings.connections} connections, ${settings.durationS} s`);
    const serverCpuBeforeMs = processCpuMs(started.running.pid);
    const postgresCpuBeforeMs = target.engine === 'postgres' ? postgresCpuMs() : null;
    const notificationsBefore = workload.notificationCount?.() ?? null;
    const figures = await runLoad({ ...plan, durationS: settings.durationS });
    const notificationsAfter = workload.notificationCount?.() ?? null;
    const serverCpuUsPerRequest = perRequestUs(serverCpuBeforeMs, processCpuMs(started.running.pid), figures.requestsTotal);
    const postgresCpuUsPerRequest = perRequestUs(postgresCpuBeforeMs, target.engine === 'postgres' ? postgresCpuMs() : null, figures.requestsTotal);
    if (figures.non2xx > 0 || (figures.unexpected2xx ?? 0) > 0) {
      print(`  status codes: ${JSON.stringify(figures.statusCounts)}; 2xx with an unexpected body: ${figures.unexpected2xx ?? 'not checked'}`);
      if (firstUnexpectedBody !== null) print(`  first unexpected body (warm-up included): ${firstUnexpectedBody}`);
      print(`  server output:\n${started.running.outputTail()}`);
    }
    const notificationsReceived = notificationsBefore === null || notificationsAfter === null ? null : notificationsAfter - notificationsBefore;
    // The load leaves requests it stopped waiting for at its end; the server finishes them. A connection still
    // busy when the server starts closing holds the close for its keep-alive timeout (72 s), past the stop's
    // grace, and a killed server writes no CPU profile: let those requests end first.
    await sleep(SHUTDOWN_SETTLE_MS);
    return { figures, serverCpuUsPerRequest, postgresCpuUsPerRequest, notificationsReceived };
  } finally {
    await started.release();
  }
}
