import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, type Config } from '../config.ts';
import { lockDataDir, restrictToOwner } from '../lib/data-dir.ts';
import { openDatabase, type Database } from '../database.ts';

export interface OpenedStore {
  database: Database;
  brandNew: boolean; // an embedded database created by this start
  close(): Promise<void>;
}

// PGlite in the data folder unless DATABASE_URL names a PostgreSQL; migrations applied before use.
export async function openStore(config: Config): Promise<OpenedStore> {
  if (config.databaseUrl) {
    const database = await openDatabase({ engine: 'postgres', url: config.databaseUrl, poolMax: config.dbPoolMax });
    await database.migrate();
    return { database, brandNew: false, close: () => database.close() };
  }
  if (config.nodeEnv === 'production' && !config.allowEmbedded) {
    throw new ConfigError(
      'NODE_ENV=production needs DATABASE_URL: the embedded PGlite database does not fsync, so a crash can lose ' +
        'committed payments. Set DATABASE_URL=postgres://… or, knowingly, PAYRAIL_ALLOW_EMBEDDED=1.',
    );
  }
  const releaseLock = lockDataDir(config.dataDir);
  try {
    const pgliteDir = join(config.dataDir, 'pglite');
    const brandNew = !existsSync(pgliteDir);
    const database = await openDatabase({ engine: 'pglite', dataDir: pgliteDir });
    await database.migrate();
    restrictToOwner(pgliteDir); // PGlite creates its files 0666
    return {
      database,
      brandNew,
      close: async () => {
        try {
          await database.close();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}
