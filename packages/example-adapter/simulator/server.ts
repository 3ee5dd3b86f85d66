import { createHash } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { AcmeApiError, createSimulatorContext, type SimulatorContext } from './context.ts';
import { createWebhookSender, type WebhookDelivery } from './webhooks.ts';
import { registerAcmeRoutes } from './routes.ts';

// Acme Pay, a fictional card provider with its own REST API, simulated: the outside world an adapter talks to.
// Real HTTP, in-memory state bounded by recordsMax, deterministic outcomes (test-cards.ts).

interface AcmeAccount {
  apiKey: string; // sent as Authorization: Bearer <api_key>
  webhookSecret: string; // signs the account's webhooks (Acme-Signature)
}

export interface AcmeSimulatorOptions {
  accounts: readonly AcmeAccount[];
  host?: string; // default 127.0.0.1
  port?: number; // default 0: any free port
  publicUrl?: string; // where customers reach the challenge pages; default the listening URL
  processingDelayMs?: number;
  slowResponseMs?: number;
  webhookAttemptsMax?: number;
  webhookRetryDelayMs?: number;
  webhookTimeoutMs?: number;
  recordsMax?: number;
  logLevel?: string | false; // default false
}

export interface RunningAcmeSimulator {
  url: string;
  app: FastifyInstance;
  webhookDeliveries: readonly WebhookDelivery[];
  webhooksIdle(): Promise<void>;
  close(): Promise<void>;
}

export const SIMULATOR_DEFAULTS = {
  processingDelayMs: 3000,
  slowResponseMs: 30_000,
  webhookAttemptsMax: 5,
  webhookRetryDelayMs: 2000,
  webhookTimeoutMs: 5000,
  recordsMax: 10_000,
  webhookDeliveriesKeptMax: 1000,
} as const;
const SIMULATOR_BODY_LIMIT_BYTES = 64 * 1024;
const API_KEY_CHARS_MIN = 8;
const WEBHOOK_SECRET_CHARS_MIN = 16;

function accountIdOf(apiKey: string): string {
  return `acct_${createHash('sha256').update(apiKey, 'utf8').digest('hex').slice(0, 16)}`;
}

export async function startAcmeSimulator(options: AcmeSimulatorOptions): Promise<RunningAcmeSimulator> {
  if (options.accounts.length === 0) throw new Error('the simulator needs at least one account');
  const secrets = new Map<string, string>();
  for (const account of options.accounts) {
    if (account.apiKey.length < API_KEY_CHARS_MIN) throw new Error(`an api key must have at least ${API_KEY_CHARS_MIN} characters`);
    if (account.webhookSecret.length < WEBHOOK_SECRET_CHARS_MIN) throw new Error(`a webhook secret must have at least ${WEBHOOK_SECRET_CHARS_MIN} characters`);
    secrets.set(accountIdOf(account.apiKey), account.webhookSecret);
  }
  const webhooks = createWebhookSender({
    attemptsMax: options.webhookAttemptsMax ?? SIMULATOR_DEFAULTS.webhookAttemptsMax,
    retryDelayMs: options.webhookRetryDelayMs ?? SIMULATOR_DEFAULTS.webhookRetryDelayMs,
    timeoutMs: options.webhookTimeoutMs ?? SIMULATOR_DEFAULTS.webhookTimeoutMs,
    deliveriesKeptMax: SIMULATOR_DEFAULTS.webhookDeliveriesKeptMax,
  });
  let listeningUrl = '';
  const context: SimulatorContext = createSimulatorContext({
    recordsMax: options.recordsMax ?? SIMULATOR_DEFAULTS.recordsMax,
    webhooks,
    timing: {
      processingDelayMs: options.processingDelayMs ?? SIMULATOR_DEFAULTS.processingDelayMs,
      slowResponseMs: options.slowResponseMs ?? SIMULATOR_DEFAULTS.slowResponseMs,
    },
    publicUrl: () => (options.publicUrl ?? listeningUrl).replace(/\/+$/, ''),
    webhookSecrets: secrets,
  });
  const app = Fastify({ logger: options.logLevel ? { level: options.logLevel } : false, bodyLimit: SIMULATOR_BODY_LIMIT_BYTES });
  app.setErrorHandler((error: Error & { statusCode?: number; validation?: unknown; code?: string }, request, reply) => {
    if (error instanceof AcmeApiError) {
      return reply.code(error.statusCode).send({ error: { type: error.type, code: error.code, message: error.message, param: error.param } });
    }
    const statusCode = error.statusCode ?? 500;
    if (statusCode >= 500) {
      request.log.error({ err: error }, 'simulator request failed');
      return reply.code(500).send({ error: { type: 'api_error', code: 'internal_error', message: 'Acme Pay had an internal error', param: null } });
    }
    const code = error.validation ? 'parameter_invalid' : (error.code ?? 'bad_request').toLowerCase();
    return reply.code(statusCode).send({ error: { type: 'invalid_request_error', code, message: error.message, param: null } });
  });
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).send({ error: { type: 'not_found_error', code: 'route_not_found', message: 'no such route', param: null } }),
  );
  registerAcmeRoutes(app, context, (apiKey) => (secrets.has(accountIdOf(apiKey)) ? accountIdOf(apiKey) : null));
  app.addHook('preClose', async () => {
    context.close();
    await webhooks.close();
  });
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('the simulator has no port');
  listeningUrl = `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`;
  return {
    url: listeningUrl,
    app,
    webhookDeliveries: webhooks.deliveries,
    webhooksIdle: () => webhooks.idle(),
    close: () => app.close(),
  };
}
