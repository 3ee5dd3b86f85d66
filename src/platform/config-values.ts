import { ConfigError } from './config-error.ts';
import { parseTimeRatesText, TimeRatesError } from './lib/status-check-schedule.ts';

// The parts of the configuration that take more than a schema to read: URLs, tables, rates.

export interface SandboxRabbit {
  url: string;
  user: string;
  password: string;
  queue: string;
}

// The credentials leave the URL: the sandbox gateway's settings travel in every request and its logs show rabbit_url,
// while rabbit_password is redacted wherever it appears.
export function sandboxRabbitOf(text: string, queue: string): SandboxRabbit {
  if (!URL.canParse(text)) throw new ConfigError('invalid configuration: PAYRAIL_SANDBOX_RABBIT_URL is not a URL');
  const url = new URL(text);
  let user: string;
  let password: string;
  try {
    user = url.username === '' && url.password === '' ? 'guest' : decodeURIComponent(url.username);
    password = url.username === '' && url.password === '' ? 'guest' : decodeURIComponent(url.password);
  } catch {
    throw new ConfigError('invalid configuration: PAYRAIL_SANDBOX_RABBIT_URL has malformed percent-encoded credentials');
  }
  url.username = '';
  url.password = '';
  return { url: url.toString().replace(/\/$/, ''), user, password, queue };
}

// The same rules as a gateway's status_checker_time_rates, refused at start rather than by the first status check.
export function sandboxStatusRates(text: string): Record<string, number> {
  try {
    return parseTimeRatesText(text);
  } catch (error) {
    if (error instanceof TimeRatesError) throw new ConfigError(`invalid configuration: PAYRAIL_SANDBOX_STATUS_RATES ${error.message}`);
    throw error;
  }
}

export function normalizeBoolean(raw: string): string {
  const lowered = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(lowered)) return 'true';
  if (['0', 'false', 'no', 'off'].includes(lowered)) return 'false';
  return raw;
}

export function parseExtraCurrencies(text: string): Record<string, number> {
  const table: Record<string, number> = {};
  for (const entry of text.split(',').filter(Boolean)) {
    const [code, exponent] = entry.split(':');
    table[code!] = Number(exponent);
  }
  return table;
}

const METRICS_PORT_DEFAULT = 9464; // the port Prometheus' exporters conventionally take for an application

// PAYRAIL_METRICS_PORT: a port, or `off`. Unset: on at 9464 for the embedded start (one process on a workstation),
// off with DATABASE_URL, where an operator picks the port each process exposes to the scraper.
export function metricsListenerOf(text: string | undefined, host: string, withDatabaseUrl: boolean): { host: string; port: number; explicit: boolean } | null {
  if (text === 'off') return null;
  if (text === undefined) return withDatabaseUrl ? null : { host, port: METRICS_PORT_DEFAULT, explicit: false };
  const port = Number(text);
  if (!Number.isInteger(port) || port > 65535) throw new ConfigError('invalid configuration: PAYRAIL_METRICS_PORT must be a port (0-65535) or off');
  return { host, port, explicit: true };
}
