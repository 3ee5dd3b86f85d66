import type { Config } from '../config.ts';
import { loadTls } from '../lib/tls.ts';
import { startSandboxAdapter, type RunningSandboxAdapter } from '../sandbox-adapter/server.ts';

// `payrail start --role sandbox-adapter`: the sandbox acquirer alone, on HOST:PORT, under PAYRAIL_SANDBOX_ADAPTER_URL.
export async function startSandboxAdapterRole(config: Config, print: (line: string) => void): Promise<RunningSandboxAdapter> {
  const tls = config.trustProxy ? null : await loadTls(config.dataDir, config.tlsCertPath, config.tlsKeyPath);
  const running = await startSandboxAdapter({
    host: config.host,
    port: config.port,
    publicBaseUrl: config.sandboxAdapterUrl,
    ...(tls ? { https: { cert: tls.cert, key: tls.key }, callbackCa: [tls.cert] } : {}),
    logLevel: config.logLevel,
  });
  print(`Payrail sandbox adapter is listening on ${running.url}, reachable as ${config.sandboxAdapterUrl}`);
  return running;
}
