import type { Config } from '../config.ts';
import { loadTls } from '../lib/tls.ts';
import { startSandboxAdapter, type RunningSandboxAdapter } from '../sandbox-adapter/server.ts';
import { openStore } from './open-store.ts';
import { loadSandboxAdapterSecret } from './secrets.ts';

// `payrail start --role sandbox-adapter`: the sandbox acquirer alone, on HOST:PORT, under PAYRAIL_SANDBOX_ADAPTER_URL.
// It opens the service's database (DATABASE_URL) for its transactions and needs the service's
// PAYRAIL_SANDBOX_ADAPTER_SECRET; PAYRAIL_PUBLIC_URL names the service, the only origin it sends customers and
// callbacks to. Without DATABASE_URL it opens the embedded database of its own data folder, which one process
// holds at a time: give it a data folder of its own and the same PAYRAIL_SANDBOX_ADAPTER_SECRET as the service.
export async function startSandboxAdapterRole(config: Config, print: (line: string) => void): Promise<RunningSandboxAdapter> {
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
      ...(tls ? { https: { cert: tls.cert, key: tls.key }, callbackCa: [tls.cert] } : {}),
      logLevel: config.logLevel,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  print(`Payrail sandbox adapter is listening on ${running.url}, reachable as ${config.sandboxAdapterUrl} (${store.database.engine})`);
  return {
    ...running,
    stop: async () => {
      try {
        await running.stop();
      } finally {
        await store.close();
      }
    },
  };
}
