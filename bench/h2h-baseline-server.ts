// The like-for-like ceiling Payrail's Host-to-Host payments are measured against (issue 24): a bare Fastify 5
// HTTPS server doing exactly the I/O an approved card payment needs (bench/lib/h2h-baseline-app.ts), and in the same
// process a loop delivering its notifications (bench/lib/h2h-baseline-notifier.ts), on tables shaped as Payrail's
// (bench/lib/h2h-baseline-schema.ts). Configured by the same environment variables as Payrail (PORT, HOST,
// PAYRAIL_DATA_DIR, PAYRAIL_PUBLIC_URL, DATABASE_URL: PostgreSQL when set, else PGlite in the data folder).
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config.ts';
import { loadTls } from '../src/platform/lib/tls.ts';
import { buildH2hBaselineApp } from './lib/h2h-baseline-app.ts';
import { startNotifier } from './lib/h2h-baseline-notifier.ts';
import { openBaselineStore } from './lib/h2h-baseline-store.ts';

const NOTIFICATION_BATCH_MAX = 50; // as Payrail's worker claims

async function main(): Promise<void> {
  const config = loadConfig();
  const store = await openBaselineStore(
    config.databaseUrl
      ? { engine: 'postgres', url: config.databaseUrl, poolMax: config.dbPoolMax }
      : { engine: 'pglite', dataDir: join(config.dataDir, 'pglite') },
  );
  const tls = await loadTls(config.dataDir, null, null);
  const app = await buildH2hBaselineApp({ config, store, tls });
  await app.listen({ host: config.host, port: config.port });
  const notifier = startNotifier(store, {
    batchSizeMax: NOTIFICATION_BATCH_MAX,
    pollMs: config.workerPollMs,
    onError: (error) => process.stderr.write(`h2h-baseline-server: notification pass failed: ${(error as Error).stack ?? String(error)}\n`),
  });
  const stop = () => {
    notifier
      .stop()
      .then(() => app.close())
      .then(() => store.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`h2h-baseline-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
