import type { ExampleAdapterOptions } from './server.ts';

// The adapter's own configuration, from the environment. Everything about a gateway (Acme key, URLs, secrets)
// arrives with each call in its settings block; only what cannot (its own keys, where it listens) is here.
//   ACME_ADAPTER_SIGN_KEYS          comma-separated sign_key of each Payrail gateway served (required)
//   ACME_ADAPTER_SEAL_KEY           at least 32 characters: seals the callback context in Acme's metadata (required)
//   ACME_ADAPTER_HOST / _PORT       where it listens (127.0.0.1:3100)
//   ACME_ADAPTER_PUBLIC_URL         how Acme reaches it for webhooks (http://HOST:PORT)
//   ACME_ADAPTER_CALLBACK_CA_FILE   a PEM file of CAs to trust for callbacks to Payrail (a self-signed Payrail)
//   ACME_ADAPTER_LOG_LEVEL          pino level (info)

export interface AdapterEnvironmentConfig {
  options: ExampleAdapterOptions;
  callbackCaFile: string | null;
}

const PORT_DEFAULT = 3100;

export class ConfigError extends Error {}

export function adapterConfigFromEnv(env: Readonly<Record<string, string | undefined>>): AdapterEnvironmentConfig {
  const signKeys = (env['ACME_ADAPTER_SIGN_KEYS'] ?? '')
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
  if (signKeys.length === 0) throw new ConfigError('ACME_ADAPTER_SIGN_KEYS must name the sign_key of at least one Payrail gateway');
  const sealKey = env['ACME_ADAPTER_SEAL_KEY'] ?? '';
  if (sealKey.length < 32) throw new ConfigError('ACME_ADAPTER_SEAL_KEY must have at least 32 characters');
  const host = env['ACME_ADAPTER_HOST'] ?? '127.0.0.1';
  const port = Number(env['ACME_ADAPTER_PORT'] ?? PORT_DEFAULT);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new ConfigError('ACME_ADAPTER_PORT must be a port number');
  const publicUrl = env['ACME_ADAPTER_PUBLIC_URL'];
  if (publicUrl !== undefined && !/^https?:\/\//.test(publicUrl)) throw new ConfigError('ACME_ADAPTER_PUBLIC_URL must be an http(s) URL');
  return {
    options: {
      signKeys,
      sealKey,
      host,
      port,
      ...(publicUrl === undefined ? {} : { publicUrl }),
      logLevel: env['ACME_ADAPTER_LOG_LEVEL'] ?? 'info',
    },
    callbackCaFile: env['ACME_ADAPTER_CALLBACK_CA_FILE'] ?? null,
  };
}
