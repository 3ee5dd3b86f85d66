// The ceiling Payrail is measured against: Fastify 5 over HTTPS, the variant A body schema checked by
// Fastify's own Ajv, and the one INSERT a payment needs; no auth lookup, idempotency, hooks or logging.
// Configured by the same environment variables as Payrail (PORT, HOST, PAYRAIL_DATA_DIR, DATABASE_URL).
// BENCH_BASELINE_LAYERS adds Payrail's layers back one by one (bench/probe.ts); `npm run bench` sets none.
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../src/platform/config.ts';
import { createMerchant } from '../src/payments/flows/merchants.ts';
import { loadTls } from '../src/platform/lib/tls.ts';
import { openDatabase } from '../src/platform/database.ts';
import { BASELINE_MERCHANT_KEY_FILE, buildBaselineApp, parseLayers } from './lib/baseline-app.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const layers = parseLayers(process.env['BENCH_BASELINE_LAYERS']);
  const database = config.databaseUrl
    ? await openDatabase({ engine: 'postgres', url: config.databaseUrl, poolMax: config.dbPoolMax })
    : await openDatabase({ engine: 'pglite', dataDir: join(config.dataDir, 'pglite') });
  await database.migrate();
  // A real merchant with keys, so the auth layer has a key to find; the bare baseline only uses its id.
  const merchant = await createMerchant(database.db, randomBytes(32), 'Bench baseline');
  writeFileSync(join(config.dataDir, BASELINE_MERCHANT_KEY_FILE), merchant.sandboxKey, { mode: 0o600 });
  const tls = await loadTls(config.dataDir, null, null);
  const app = await buildBaselineApp({ config, database, merchantId: merchant.merchant.id, tls, layers });
  await app.listen({ host: config.host, port: config.port });
  const stop = () => {
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`baseline-server: ${(error as Error).stack ?? String(error)}\n`);
  process.exit(1);
});
