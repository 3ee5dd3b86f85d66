import { join } from 'node:path';
import type { Config } from '../config.ts';
import { ConfigError } from '../config.ts';
import { MASTER_KEY_BYTES, parseMasterKey, randomBase64Url, randomHex } from '../lib/crypto.ts';
import { ensureDataDir, readOrCreateSecretFile } from '../lib/data-dir.ts';

const ADMIN_KEY_RANDOM_BYTES = 32;
// 24 random bytes are 32 base64url characters: the length spec 2.10 asks of a gateway sign_key.
const SANDBOX_ADAPTER_SECRET_RANDOM_BYTES = 24;
const SANDBOX_ADAPTER_SECRET_CHARS = 32;

export interface ServiceSecrets {
  masterKey: Buffer;
  adminKey: string | null; // null: the admin key is off (PAYRAIL_ADMIN_KEY unset with DATABASE_URL)
  adminKeyCreatedAt: string | null; // path of the file the admin key was just written to, to print it once
  sandboxAdapterSecret: string;
}

export function adminKeyPath(dataDir: string): string {
  return join(dataDir, 'admin.key');
}

function sandboxAdapterSecretPath(dataDir: string): string {
  return join(dataDir, 'sandbox-adapter.key');
}

// Keys come from the environment; absent, they are generated once into the data folder (mode 0600) — but for the
// admin key with DATABASE_URL, which is then off.
export function loadSecrets(config: Config): ServiceSecrets {
  ensureDataDir(config.dataDir);
  if (!config.masterKey && config.nodeEnv === 'production' && config.databaseUrl) {
    throw new ConfigError('PAYRAIL_MASTER_KEY is required in production with DATABASE_URL: every api/worker process must share it to decrypt merchant keys');
  }
  const masterKey = config.masterKey
    ? parseMasterKey(config.masterKey)
    : parseMasterKey(readOrCreateSecretFile(join(config.dataDir, 'master.key'), () => randomHex(MASTER_KEY_BYTES)).value);
  const sandboxAdapterSecret = loadSandboxAdapterSecret(config);
  if (config.adminKey) return { masterKey, adminKey: config.adminKey, adminKeyCreatedAt: null, sandboxAdapterSecret };
  // Unset with a real PostgreSQL, the admin key is off: operators sign in to /ops, and `payrail operator create`
  // reaches the database itself. The embedded engine keeps one in the data folder: its database is locked by the
  // server, so the CLI can reach it only through the admin API.
  if (config.databaseUrl) return { masterKey, adminKey: null, adminKeyCreatedAt: null, sandboxAdapterSecret };
  const path = adminKeyPath(config.dataDir);
  const adminKeyFile = readOrCreateSecretFile(path, () => `adm_${randomBase64Url(ADMIN_KEY_RANDOM_BYTES)}`);
  return { masterKey, adminKey: adminKeyFile.value, adminKeyCreatedAt: adminKeyFile.created ? path : null, sandboxAdapterSecret };
}

// The sandbox adapter's own secret: the core signs its requests with it (X-SIGNATURE) and the sandbox its
// callbacks. Every process that runs either side must hold the same one, like the master key.
export function loadSandboxAdapterSecret(config: Config): string {
  if (config.sandboxAdapterSecret) return config.sandboxAdapterSecret;
  if (config.nodeEnv === 'production' && config.databaseUrl) {
    throw new ConfigError(
      'PAYRAIL_SANDBOX_ADAPTER_SECRET (32 characters) is required in production with DATABASE_URL: every api and sandbox-adapter process must share it',
    );
  }
  ensureDataDir(config.dataDir);
  const secret = readOrCreateSecretFile(sandboxAdapterSecretPath(config.dataDir), () => randomBase64Url(SANDBOX_ADAPTER_SECRET_RANDOM_BYTES)).value;
  if ([...secret].length !== SANDBOX_ADAPTER_SECRET_CHARS) {
    throw new ConfigError(`${sandboxAdapterSecretPath(config.dataDir)} must hold exactly ${SANDBOX_ADAPTER_SECRET_CHARS} characters`);
  }
  return secret;
}
