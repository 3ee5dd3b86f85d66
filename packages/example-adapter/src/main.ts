import { readFileSync } from 'node:fs';
import { adapterConfigFromEnv, ConfigError } from './config.ts';
import { startExampleAdapter } from './server.ts';

// npm start: the Acme Pay adapter, configured from the environment (config.ts), until SIGINT or SIGTERM.
try {
  const config = adapterConfigFromEnv(process.env);
  const callbackCa = config.callbackCaFile === null ? [] : [readFileSync(config.callbackCaFile, 'utf8')];
  const adapter = await startExampleAdapter({ ...config.options, callbackCa });
  adapter.app.log.info({ url: adapter.url, webhookUrl: adapter.webhookUrl }, 'Acme Pay adapter listening');
  const stop = () => void adapter.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  console.error(error instanceof ConfigError ? `configuration: ${error.message}` : error);
  process.exit(1);
}
