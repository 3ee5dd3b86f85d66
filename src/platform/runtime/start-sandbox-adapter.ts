import type { FastifyInstance } from 'fastify';
import { serveOverRabbit, type RabbitServer } from '@payrail/adapter-kit';
import type { Config } from '../config.ts';
import { loadTls } from '../lib/tls.ts';
import { startSandboxAdapter, type RunningSandboxAdapter } from '../../sandbox-adapter/server.ts';
import { openStore } from './open-store.ts';
import { loadSandboxAdapterSecret } from './secrets.ts';

// `payrail start --role sandbox-adapter`: the sandbox acquirer alone, on HOST:PORT, under PAYRAIL_SANDBOX_ADAPTER_URL.
// It opens the service's database (DATABASE_URL) for its transactions and needs the service's
// PAYRAIL_SANDBOX_ADAPTER_SECRET; PAYRAIL_PUBLIC_URL names the service, the only origin it sends customers and
// callbacks to. Without DATABASE_URL it opens the embedded database of its own data folder, which one process
// holds at a time: give it a data folder of its own and the same PAYRAIL_SANDBOX_ADAPTER_SECRET as the service.
//
// --transport rabbit (default PAYRAIL_SANDBOX_ADAPTER_TRANSPORT): it also consumes PAYRAIL_SANDBOX_RABBIT_QUEUE on
// PAYRAIL_SANDBOX_RABBIT_URL. HTTP stays on either way: the 3-D Secure page is a web page.
export async function startSandboxAdapterRole(
  config: Config,
  print: (line: string) => void,
  transport: SandboxTransport = config.sandboxAdapterTransport,
): Promise<RunningSandboxAdapter> {
  const secret = loadSandboxAdapterSecret(config);
  const tls = config.trustProxy ? null : await loadTls(config.dataDir, config.tlsCertPath, config.tlsKeyPath);
  const store = await openStore(config);
  let running: RunningSandboxAdapter;
  try {
    running = await startSandboxAdapter({
      host: config.host,
      port: config.port,
      publicBaseUrl: config.sandboxAdapterUrl,
      allowedOrigin: config.publicUrl,
      secret,
      db: store.database.db,
      callbackPollMs: config.workerPollMs,
      asyncApprovalDelayMs: config.sandboxCallbackDelayMs,
      ...(tls ? { https: { cert: tls.cert, key: tls.key }, callbackCa: [tls.cert] } : {}),
      logLevel: config.logLevel,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  print(`Payrail sandbox adapter is listening on ${running.url}, reachable as ${config.sandboxAdapterUrl} (${store.database.engine})`);
  let rabbit: RabbitServer | null = null;
  if (transport === 'rabbit') {
    try {
      rabbit = await serveSandboxOverRabbit(running.app, config, new URL(config.sandboxAdapterUrl).pathname);
    } catch (error) {
      await running.stop().finally(() => store.close());
      throw error;
    }
    print(`Payrail sandbox adapter is consuming ${rabbit.queue} on ${rabbit.broker}`);
  }
  return {
    ...running,
    stop: async () => {
      try {
        await rabbit?.close(); // first: no new request is taken while the HTTP side winds down
        await running.stop();
      } finally {
        await store.close();
      }
    },
  };
}

export type SandboxTransport = Config['sandboxAdapterTransport'];

// The sandbox adapter's routes (mounted at routePrefix on app) served over RabbitMQ too: used by this role and by
// the api role's in-process sandbox when PAYRAIL_SANDBOX_ADAPTER_TRANSPORT is rabbit.
export function serveSandboxOverRabbit(app: FastifyInstance, config: Config, routePrefix: string): Promise<RabbitServer> {
  const { url, user, password, queue } = config.sandboxRabbit;
  return serveOverRabbit(app, {
    url,
    user,
    password,
    queue,
    routePrefix,
    // Behind a TLS proxy the app refuses requests that did not come over HTTPS; these came over the broker.
    ...(config.trustProxy ? { extraHeaders: { 'x-forwarded-proto': 'https' } } : {}),
  });
}
