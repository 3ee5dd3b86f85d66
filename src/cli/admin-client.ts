import { existsSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { getCACertificates } from 'node:tls';
import type { Config } from '../platform/config.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';
import { objectsIn } from '../platform/lib/json-path.ts';
import { selfSignedCertPath } from '../platform/lib/tls.ts';
import { errorMessage, isJsonObject } from '../platform/lib/type-guards.ts';
import { adminKeyPath } from '../platform/runtime/secrets.ts';

const ADMIN_REQUEST_TIMEOUT_MS = 15_000;

interface AdminCallOptions {
  timeoutMs?: number; // how long to wait for the answer (default ADMIN_REQUEST_TIMEOUT_MS): a rebuild waits longer
}

export interface AdminClient {
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown, options?: AdminCallOptions): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

// A body streamed as it is read (a settlement file): 200 and 201 are both success.
export interface AdminUploader {
  upload(path: string, form: { contentType: string; body: Readable }, options?: AdminCallOptions): Promise<Record<string, unknown>>;
}

export interface ServerTrust {
  caFile?: string | null; // the certificate the server named in the data folder
  source?: string; // where baseUrl came from, said when nothing answers there
}

// The CLI reaches the running server over the admin API, so it works while PGlite is locked by the server.
export function adminClient(config: Config, baseUrl: string, trust: ServerTrust = {}): AdminClient & AdminUploader {
  const adminKey = config.adminKey ?? readAdminKeyFile(config.dataDir);
  const certPath = config.tlsCertPath ?? trust.caFile ?? selfSignedCertPath(config.dataDir);
  const extraCa = existsSync(certPath) ? [readFileSync(certPath, 'utf8')] : [];
  // node:http(s), not undici: a CLI command is one or two requests, and loading undici was a fifth of its start-up.
  const transport: Transport =
    new URL(baseUrl).protocol === 'https:'
      ? // 'default': the bundled roots plus NODE_EXTRA_CA_CERTS (and the system's with --use-system-ca), e.g. mkcert's CA.
        { request: httpsRequest, agent: new HttpsAgent({ keepAlive: true, ca: [...getCACertificates('default'), ...extraCa] }) }
      : { request: httpRequest, agent: new HttpAgent({ keepAlive: true }) };
  const exchange = async (
    method: string,
    path: string,
    outgoing: Pick<Outgoing, 'headers' | 'body'>,
    options: AdminCallOptions,
    successes: readonly number[],
  ): Promise<Record<string, unknown>> => {
    const url = `${baseUrl.replace(/\/$/, '')}/api/admin/v1${path}`;
    let response: { statusCode: number; text: string };
    try {
      response = await send(transport, url, { method, ...outgoing, timeoutMs: options.timeoutMs ?? ADMIN_REQUEST_TIMEOUT_MS });
    } catch (error) {
      const from = trust.source === undefined ? '' : ` The URL came from ${trust.source}.`;
      throw new CliError(
        `cannot reach Payrail at ${baseUrl} (${errorMessage(error)}).${from} Is it running? Start it with npm start, or give --url URL`,
        EXIT_CODES.unreachable,
      );
    }
    const { text } = response;
    const parsed = parseJson(text);
    if (!successes.includes(response.statusCode)) {
      const errors = objectsIn(parsed?.['errors']);
      const reason =
        errors.map((error) => `${String(error['code'])}: ${error['field'] ? `${String(error['field'])} ` : ''}${String(error['message'])}`).join('; ') ||
        text.slice(0, 200);
      throw new CliError(`${method} ${path} failed with HTTP ${response.statusCode}: ${reason}`, EXIT_CODES.failed);
    }
    if (!parsed) throw new CliError(`${method} ${path} answered with something that is not JSON`, EXIT_CODES.failed);
    return parsed;
  };
  return {
    async call(method, path, body, options = {}) {
      const headers = { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      return exchange(method, path, { headers, body: body === undefined ? undefined : JSON.stringify(body) }, options, [200]);
    },
    async upload(path, form, options = {}) {
      const headers = { authorization: `Bearer ${adminKey}`, 'content-type': form.contentType };
      return exchange('POST', path, { headers, body: form.body }, options, [200, 201]);
    },
    close: async () => transport.agent.destroy(),
  };
}

interface Transport {
  request: typeof httpRequest;
  agent: HttpAgent;
}

interface Outgoing {
  method: string;
  headers: Record<string, string>;
  body: string | Readable | undefined;
  timeoutMs: number;
}

// One request and its whole answer as text; no answer within timeoutMs is an error.
function send(transport: Transport, url: string, outgoing: Outgoing): Promise<{ statusCode: number; text: string }> {
  const { method, headers, body, timeoutMs } = outgoing;
  return new Promise((resolve, reject) => {
    const sent = transport.request(url, { method, agent: transport.agent, headers, timeout: timeoutMs }, (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ statusCode: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('timeout', () => sent.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    sent.on('error', reject);
    if (typeof body === 'object') {
      body.on('error', (error) => sent.destroy(error));
      body.pipe(sent);
    } else sent.end(body);
  });
}

function readAdminKeyFile(dataDir: string): string {
  const path = adminKeyPath(dataDir);
  if (!existsSync(path)) {
    throw new CliError(`no admin key: set PAYRAIL_ADMIN_KEY, or run the CLI where ${path} exists (PAYRAIL_DATA_DIR)`, EXIT_CODES.setup);
  }
  return readFileSync(path, 'utf8').trim();
}

function parseJson(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return isJsonObject(value) ? value : null;
  } catch {
    return null;
  }
}
