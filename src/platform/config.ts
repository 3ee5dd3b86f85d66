import { join, resolve, sep } from 'node:path';
import { Ajv } from 'ajv';
import Type, { type Static } from 'typebox';
import { textAt } from './lib/json-path.ts';
import { ConfigError } from './config-error.ts';
import { metricsListenerOf, normalizeBoolean, parseExtraCurrencies, sandboxRabbitOf, sandboxStatusRates } from './config-values.ts';

const AUTHORIZATION_HOLD_HOURS_DEFAULT = 168; // 7 days, the usual validity of a card authorization

// Every setting, from the environment, in one schema (ARCHITECTURE: config.ts).
const ConfigEnv = Type.Object({
  NODE_ENV: Type.String({ default: 'development' }),
  HOST: Type.String({ default: 'localhost', description: 'listen address' }),
  PORT: Type.Integer({ minimum: 0, maximum: 65535, default: 8443 }),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://' })),
  PAYRAIL_DB_POOL_MAX: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
  PAYRAIL_DATA_DIR: Type.String({ default: './data' }),
  PAYRAIL_DISPUTE_DOCUMENTS_DIR: Type.Optional(Type.String({ minLength: 1, description: 'dispute evidence files; default <data dir>/dispute-documents' })),
  PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES: Type.Integer({
    minimum: 0,
    maximum: 1_099_511_627_776,
    default: 200 * 1024 * 1024,
    description: 'dispute evidence files a merchant may keep in production, all disputes together (200 MiB)',
  }),
  PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES: Type.Integer({
    minimum: 0,
    maximum: 1_099_511_627_776,
    default: 20 * 1024 * 1024,
    description: 'the same in the sandbox (20 MiB)',
  }),
  PAYRAIL_PROFILE_FILES_DIR: Type.Optional(Type.String({ minLength: 1, description: 'KYC documents of profiles; default <data dir>/profile-files' })),
  PAYRAIL_ALLOW_EMBEDDED: Type.Boolean({ default: false }),
  PAYRAIL_TLS_CERT: Type.Optional(Type.String()),
  PAYRAIL_TLS_KEY: Type.Optional(Type.String()),
  PAYRAIL_TRUST_PROXY: Type.Boolean({ default: false }),
  PAYRAIL_PUBLIC_URL: Type.Optional(Type.String({ pattern: '^https?://[^/]+$' })),
  PAYRAIL_ADMIN_KEY: Type.Optional(Type.String({ minLength: 32 })),
  PAYRAIL_MASTER_KEY: Type.Optional(Type.String()),
  PAYRAIL_EXTRA_CURRENCIES: Type.String({ default: 'USDT:6', pattern: '^([A-Z]{3,4}:[0-9]{1,2}(,[A-Z]{3,4}:[0-9]{1,2})*)?$' }),
  PAYRAIL_LOG_LEVEL: Type.Union(
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map((level) => Type.Literal(level)),
    { default: 'info' },
  ),
  PAYRAIL_DEMO_MERCHANT: Type.Boolean({ default: true }),
  PAYRAIL_PAYMENT_EXPIRY_MINUTES: Type.Integer({ minimum: 1, maximum: 43200, default: 30 }),
  PAYRAIL_PAYOUT_LIFETIME_MINUTES: Type.Integer({ minimum: 1, maximum: 43200, default: 1440 }),
  PAYRAIL_AUTHORIZATION_HOLD_HOURS: Type.Integer({
    minimum: 1,
    maximum: 720,
    default: AUTHORIZATION_HOLD_HOURS_DEFAULT,
    description: 'how long a two-step authorization waits for confirm or decline before it is voided',
  }),
  PAYRAIL_SANDBOX_ADAPTER_URL: Type.Optional(Type.String({ pattern: '^https?://' })),
  PAYRAIL_SANDBOX_ADAPTER_SECRET: Type.Optional(
    Type.String({ minLength: 32, maxLength: 32, description: 'signs what the core and the sandbox adapter send each other' }),
  ),
  PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: Type.Union([Type.Literal('http'), Type.Literal('rabbit')], {
    default: 'http',
    description: 'how the built-in sandbox gateway reaches the sandbox adapter (rabbit: over PAYRAIL_SANDBOX_RABBIT_URL)',
  }),
  PAYRAIL_SANDBOX_RABBIT_URL: Type.String({ default: 'amqp://guest:guest@127.0.0.1:5672', pattern: '^amqps?://[^/?#]+(/[^?#]*)?$' }),
  PAYRAIL_SANDBOX_RABBIT_QUEUE: Type.String({ default: 'payrail.sandbox-adapter.requests', pattern: '^(?!amq\\.)[A-Za-z0-9._:-]{1,255}$' }),
  PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S: Type.Integer({ minimum: 1, maximum: 120, default: 15 }),
  PAYRAIL_SANDBOX_FINAL_WAITING_S: Type.Integer({ minimum: 0, maximum: 3600, default: 15 }),
  PAYRAIL_SANDBOX_CALLBACK_DELAY_MS: Type.Integer({ minimum: 10, maximum: 600_000, default: 3000 }),
  PAYRAIL_SANDBOX_STATUS_RATES: Type.String({ default: '1-3:30,4-6:60,7-:300', maxLength: 1000, description: 'checked by parseTimeRatesText' }),
  PAYRAIL_ALLOW_PRIVATE_CALLBACKS: Type.Optional(Type.Boolean()), // default: see allowPrivateCallbacksByDefault
  PAYRAIL_WORKER_POLL_MS: Type.Integer({ minimum: 10, maximum: 60_000, default: 500 }),
  PAYRAIL_EVENT_RETENTION_DAYS: Type.Integer({ minimum: 1, maximum: 36_500, default: 30, description: 'days events (merchant notifications) are kept' }),
  PAYRAIL_REQUEST_TIMEOUT_MS: Type.Integer({ minimum: 1000, maximum: 30_000, default: 30_000, description: 'time to receive headers and body' }),
  PAYRAIL_RATE_LIMIT_WINDOW_MS: Type.Integer({ minimum: 1000, maximum: 3_600_000, default: 60_000 }),
  PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 6000, description: 'per window; 0: no limit' }),
  PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 12_000 }),
  PAYRAIL_RATE_LIMIT_ADMIN_IP_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 600 }),
  PAYRAIL_RATE_LIMIT_CORE_IP_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 1200, description: 'core banking API, per IP and window' }),
  PAYRAIL_RATE_LIMIT_CHECKOUT_POST_IP_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 30 }),
  PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX: Type.Integer({ minimum: 0, maximum: 100_000_000, default: 1200, description: 'dashboard requests per IP and window' }),
  PAYRAIL_SIGN_IN_CODE_TTL_S: Type.Integer({ minimum: 10, maximum: 3600, default: 300, description: 'how long a sign-in confirmation code is valid' }),
  PAYRAIL_SIGN_IN_WINDOW_S: Type.Integer({ minimum: 60, maximum: 86_400, default: 900, description: 'the window the sign-in limits count in' }),
  PAYRAIL_SIGN_IN_PAIR_MAX: Type.Integer({
    minimum: 1,
    maximum: 10_000,
    default: 10,
    description: 'sign-in attempts per login from one client address and window',
  }),
  PAYRAIL_SIGN_IN_ACCOUNT_MAX: Type.Integer({
    minimum: 1,
    maximum: 100_000,
    default: 100,
    description: 'sign-in attempts per login from all addresses and window: the ceiling against a distributed attack',
  }),
  PAYRAIL_SIGN_IN_IP_MAX: Type.Integer({ minimum: 1, maximum: 100_000, default: 30, description: 'sign-in attempts per client IP and window' }),
  PAYRAIL_PASSWORD_SCRYPT_LOG_N: Type.Integer({
    minimum: 10,
    maximum: 20,
    default: 15,
    description: 'scrypt cost of new password hashes, N = 2^value (15: 32 MiB; lower only to make tests fast)',
  }),
  PAYRAIL_SMTP_URL: Type.Optional(Type.String({ pattern: '^smtps?://', description: 'sends sign-in codes by e-mail; unset: codes go to the log' })),
  PAYRAIL_SIGNUP: Type.Optional(
    Type.Union([Type.Literal('open'), Type.Literal('closed')], {
      description: 'dashboard sign-up: open to anyone, or closed (operators invite); default open embedded, closed with DATABASE_URL',
    }),
  ),
  PAYRAIL_SMTP_FROM: Type.Optional(Type.String({ minLength: 3, maxLength: 320, description: 'From: of those e-mails' })),
  PAYRAIL_METRICS_PORT: Type.Optional(
    Type.String({ pattern: '^(off|[0-9]{1,5})$', description: 'GET /metrics on its own listener; default 9464 embedded, off' }),
  ),
  PAYRAIL_METRICS_HOST: Type.String({ default: '127.0.0.1', minLength: 1, description: 'the metrics listener address' }),
});

type ConfigEnvValues = Static<typeof ConfigEnv>;

export interface Config {
  nodeEnv: string;
  host: string;
  port: number;
  databaseUrl: string | null;
  dbPoolMax: number;
  dataDir: string;
  disputeDocumentsDir: string; // dispute evidence files (0700 folder, 0600 files), never served openly
  disputeEvidenceQuotaBytes: { production: number; sandbox: number }; // per merchant and environment, all disputes
  profileFilesDir: string; // KYC documents of core banking profiles, kept like dispute evidence
  allowEmbedded: boolean;
  tlsCertPath: string | null;
  tlsKeyPath: string | null;
  trustProxy: boolean;
  publicUrl: string;
  adminKey: string | null;
  masterKey: string | null;
  extraCurrencies: Record<string, number>;
  logLevel: string;
  demoMerchant: boolean;
  paymentExpiryMinutes: number;
  payoutLifetimeMinutes: number; // a payout not final by then is asked one last time, then expires (its reservation released)
  authorizationHoldHours: number; // a two-step payment's authorization is voided automatically after this
  sandboxAdapterUrl: string;
  sandboxAdapterSecret: string | null; // null: generated into <data dir>/sandbox-adapter.key
  sandboxAdapterTransport: 'http' | 'rabbit';
  sandboxRabbit: { url: string; user: string; password: string; queue: string }; // url without credentials
  sandboxResponseTimeoutS: number;
  sandboxFinalWaitingS: number;
  sandboxCallbackDelayMs: number; // how long the sandbox acquirer waits before a callback-only card's callback
  sandboxStatusRates: Record<string, number>;
  allowPrivateCallbacks: boolean;
  workerPollMs: number;
  eventRetentionDays: number; // notification events older than this are pruned (a payment's newest one stays)
  requestTimeoutMs: number; // receiving one request's headers and body; not the time to answer it
  rateLimits: {
    windowMs: number;
    merchantKeyMax: number; // requests per window; 0: no limit
    merchantIpMax: number;
    adminIpMax: number;
    checkoutPostIpMax: number;
    coreIpMax: number;
    dashboardIpMax: number;
  };
  signIn: { codeTtlS: number; windowS: number; pairMax: number; accountMax: number; ipMax: number }; // two-step sign-in of the core banking API
  passwordScryptLogN: number; // cost of new password hashes; a stored hash keeps the cost it was made with
  smtp: { url: string; from: string } | null; // null: sign-in codes are written to the log (development delivery)
  signUp: 'open' | 'closed'; // the dashboard's sign-up form
  metrics: { host: string; port: number; explicit: boolean } | null; // GET /metrics on its own listener; null: off
}

export { ConfigError } from './config-error.ts';

const validateEnv = new Ajv({ coerceTypes: true, useDefaults: true, allErrors: true }).compile<ConfigEnvValues>(ConfigEnv);

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(ConfigEnv.properties)) {
    const raw = environment[name];
    if (raw === undefined || raw === '') continue;
    values[name] = textAt(schema, 'type') === 'boolean' ? normalizeBoolean(raw) : raw;
  }
  if (!validateEnv(values)) {
    const problems = (validateEnv.errors ?? []).map((error) => `${error.instancePath.slice(1) || 'config'} ${error.message}`);
    throw new ConfigError(`invalid configuration: ${problems.join('; ')}`);
  }
  return toConfig(values);
}

function toConfig(env: ConfigEnvValues): Config {
  if (Boolean(env.PAYRAIL_TLS_CERT) !== Boolean(env.PAYRAIL_TLS_KEY)) {
    throw new ConfigError('PAYRAIL_TLS_CERT and PAYRAIL_TLS_KEY must be set together');
  }
  refuseInsideEmbeddedDatabase(env);
  const publicHost = env.HOST === '0.0.0.0' || env.HOST === '::' ? 'localhost' : env.HOST;
  const publicUrl = env.PAYRAIL_PUBLIC_URL ?? `https://${publicHost.includes(':') ? `[${publicHost}]` : publicHost}:${env.PORT}`;
  return {
    nodeEnv: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    databaseUrl: env.DATABASE_URL ?? null,
    dbPoolMax: env.PAYRAIL_DB_POOL_MAX,
    dataDir: resolve(env.PAYRAIL_DATA_DIR),
    disputeDocumentsDir: resolve(env.PAYRAIL_DISPUTE_DOCUMENTS_DIR ?? join(env.PAYRAIL_DATA_DIR, 'dispute-documents')),
    disputeEvidenceQuotaBytes: { production: env.PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES, sandbox: env.PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES },
    profileFilesDir: resolve(env.PAYRAIL_PROFILE_FILES_DIR ?? join(env.PAYRAIL_DATA_DIR, 'profile-files')),
    allowEmbedded: env.PAYRAIL_ALLOW_EMBEDDED,
    tlsCertPath: env.PAYRAIL_TLS_CERT ?? null,
    tlsKeyPath: env.PAYRAIL_TLS_KEY ?? null,
    trustProxy: env.PAYRAIL_TRUST_PROXY,
    publicUrl,
    adminKey: env.PAYRAIL_ADMIN_KEY ?? null,
    masterKey: env.PAYRAIL_MASTER_KEY ?? null,
    extraCurrencies: parseExtraCurrencies(env.PAYRAIL_EXTRA_CURRENCIES),
    logLevel: env.PAYRAIL_LOG_LEVEL,
    demoMerchant: env.PAYRAIL_DEMO_MERCHANT,
    paymentExpiryMinutes: env.PAYRAIL_PAYMENT_EXPIRY_MINUTES,
    payoutLifetimeMinutes: env.PAYRAIL_PAYOUT_LIFETIME_MINUTES,
    authorizationHoldHours: env.PAYRAIL_AUTHORIZATION_HOLD_HOURS,
    sandboxAdapterUrl: env.PAYRAIL_SANDBOX_ADAPTER_URL ?? `${publicUrl}/sandbox-adapter`,
    sandboxAdapterSecret: env.PAYRAIL_SANDBOX_ADAPTER_SECRET ?? null,
    sandboxAdapterTransport: env.PAYRAIL_SANDBOX_ADAPTER_TRANSPORT,
    sandboxRabbit: sandboxRabbitOf(env.PAYRAIL_SANDBOX_RABBIT_URL, env.PAYRAIL_SANDBOX_RABBIT_QUEUE),
    sandboxResponseTimeoutS: env.PAYRAIL_SANDBOX_RESPONSE_TIMEOUT_S,
    sandboxFinalWaitingS: env.PAYRAIL_SANDBOX_FINAL_WAITING_S,
    sandboxCallbackDelayMs: env.PAYRAIL_SANDBOX_CALLBACK_DELAY_MS,
    sandboxStatusRates: sandboxStatusRates(env.PAYRAIL_SANDBOX_STATUS_RATES),
    allowPrivateCallbacks: env.PAYRAIL_ALLOW_PRIVATE_CALLBACKS ?? allowPrivateCallbacksByDefault(env),
    workerPollMs: env.PAYRAIL_WORKER_POLL_MS,
    eventRetentionDays: env.PAYRAIL_EVENT_RETENTION_DAYS,
    requestTimeoutMs: env.PAYRAIL_REQUEST_TIMEOUT_MS,
    rateLimits: {
      windowMs: env.PAYRAIL_RATE_LIMIT_WINDOW_MS,
      merchantKeyMax: env.PAYRAIL_RATE_LIMIT_MERCHANT_KEY_MAX,
      merchantIpMax: env.PAYRAIL_RATE_LIMIT_MERCHANT_IP_MAX,
      adminIpMax: env.PAYRAIL_RATE_LIMIT_ADMIN_IP_MAX,
      checkoutPostIpMax: env.PAYRAIL_RATE_LIMIT_CHECKOUT_POST_IP_MAX,
      coreIpMax: env.PAYRAIL_RATE_LIMIT_CORE_IP_MAX,
      dashboardIpMax: env.PAYRAIL_RATE_LIMIT_DASHBOARD_IP_MAX,
    },
    signIn: {
      codeTtlS: env.PAYRAIL_SIGN_IN_CODE_TTL_S,
      windowS: env.PAYRAIL_SIGN_IN_WINDOW_S,
      pairMax: env.PAYRAIL_SIGN_IN_PAIR_MAX,
      accountMax: env.PAYRAIL_SIGN_IN_ACCOUNT_MAX,
      ipMax: env.PAYRAIL_SIGN_IN_IP_MAX,
    },
    passwordScryptLogN: env.PAYRAIL_PASSWORD_SCRYPT_LOG_N,
    smtp: smtpOf(env),
    signUp: env.PAYRAIL_SIGNUP ?? (env.DATABASE_URL ? 'closed' : 'open'),
    metrics: metricsListenerOf(env.PAYRAIL_METRICS_PORT, env.PAYRAIL_METRICS_HOST, env.DATABASE_URL !== undefined),
  };
}

// Uploaded files never go inside the embedded database's folder (<data dir>/pglite), which PGlite owns and a
// restore of the database replaces whole.
function refuseInsideEmbeddedDatabase(env: ConfigEnvValues): void {
  const pgliteDir = resolve(env.PAYRAIL_DATA_DIR, 'pglite');
  for (const name of ['PAYRAIL_DISPUTE_DOCUMENTS_DIR', 'PAYRAIL_PROFILE_FILES_DIR'] as const) {
    const folder = env[name];
    if (folder === undefined) continue;
    const path = resolve(folder);
    if (path === pgliteDir || path.startsWith(`${pgliteDir}${sep}`)) throw new ConfigError(`${name} must not be inside ${pgliteDir}, the embedded database`);
  }
}

function smtpOf(env: ConfigEnvValues): Config['smtp'] {
  if (env.PAYRAIL_SMTP_URL === undefined) return null;
  if (env.PAYRAIL_SMTP_FROM === undefined) throw new ConfigError('PAYRAIL_SMTP_FROM must be set with PAYRAIL_SMTP_URL');
  return { url: env.PAYRAIL_SMTP_URL, from: env.PAYRAIL_SMTP_FROM };
}

// Callbacks to private addresses (a receiver on localhost) are a development convenience: on by default only
// for the embedded development start, off under NODE_ENV=production or with a PostgreSQL database.
function allowPrivateCallbacksByDefault(env: ConfigEnvValues): boolean {
  return env.NODE_ENV !== 'production' && !env.DATABASE_URL;
}
