import { startAcmeSimulator, SIMULATOR_DEFAULTS } from './server.ts';

// npm run simulator: Acme Pay's simulator with one account, configured from the environment.
//   ACME_SIMULATOR_HOST / _PORT            where it listens (127.0.0.1:3200)
//   ACME_SIMULATOR_PUBLIC_URL              how customers' browsers reach its challenge pages (http://HOST:PORT)
//   ACME_SIMULATOR_API_KEY                 the account's API key (acme_test_key_local)
//   ACME_SIMULATOR_WEBHOOK_SECRET          the secret its webhooks are signed with (whsec_local_simulator_secret)
//   ACME_SIMULATOR_PROCESSING_DELAY_MS     how long a processing charge takes (3000)
//   ACME_SIMULATOR_SLOW_RESPONSE_MS        how long the slow test card keeps its answer (30000)
const env = process.env;
const numberOf = (name: string, fallback: number) => {
  const value = Number(env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a non-negative integer`);
  return value;
};

const simulator = await startAcmeSimulator({
  accounts: [
    {
      apiKey: env['ACME_SIMULATOR_API_KEY'] ?? 'acme_test_key_local',
      webhookSecret: env['ACME_SIMULATOR_WEBHOOK_SECRET'] ?? 'whsec_local_simulator_secret',
    },
  ],
  host: env['ACME_SIMULATOR_HOST'] ?? '127.0.0.1',
  port: numberOf('ACME_SIMULATOR_PORT', 3200),
  ...(env['ACME_SIMULATOR_PUBLIC_URL'] === undefined ? {} : { publicUrl: env['ACME_SIMULATOR_PUBLIC_URL'] }),
  processingDelayMs: numberOf('ACME_SIMULATOR_PROCESSING_DELAY_MS', SIMULATOR_DEFAULTS.processingDelayMs),
  slowResponseMs: numberOf('ACME_SIMULATOR_SLOW_RESPONSE_MS', SIMULATOR_DEFAULTS.slowResponseMs),
  logLevel: 'info',
});
simulator.app.log.info({ url: simulator.url }, 'Acme Pay simulator listening');
const stop = () => void simulator.close().then(() => process.exit(0));
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
