import { join } from 'node:path';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { MASTER_KEY_BYTES, parseMasterKey, randomBase64Url, randomHex } from '../lib/crypto.ts';
import { ensureDataDir, readOrCreateSecretFile } from '../lib/data-dir.ts';

const ADMIN_KEY_RANDOM_BYTES = 32;

export interface ServiceSecrets {
  masterKey: Buffer;
  adminKey: string;
  adminKeyCreatedAt: string | null; // path of the file the admin key was just written to, to print it once
}

export function adminKeyPath(dataDir: string): string {
  return join(dataDir, 'admin.key');
}

// Keys come from the environment; absent, they are generated once into the data folder (mode 0600).
export function loadSecrets(config: Config): ServiceSecrets {
  ensureDataDir(config.dataDir);
  if (!config.masterKey && config.nodeEnv === 'production' && config.databaseUrl) {
    throw new ConfigError(
      'PAYRAIL_MASTER_KEY is required in production with DATABASE_URL: every api/worker process must share it to decrypt merchant keys',
    );
  }
  const masterKey = config.masterKey
    ? parseMasterKey(config.masterKey)
    : parseMasterKey(readOrCreateSecretFile(join(config.dataDir, 'master.key'), () => randomHex(MASTER_KEY_BYTES)).value);
  if (config.adminKey) return { masterKey, adminKey: config.adminKey, adminKeyCreatedAt: null };
  const path = adminKeyPath(config.dataDir);
  const adminKeyFile = readOrCreateSecretFile(path, () => `adm_${randomBase64Url(ADMIN_KEY_RANDOM_BYTES)}`);
  return { masterKey, adminKey: adminKeyFile.value, adminKeyCreatedAt: adminKeyFile.created ? path : null };
}
