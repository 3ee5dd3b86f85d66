import { existsSync, readFileSync } from 'node:fs';
import { getCACertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { Config } from '../platform/config.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';
import { objectsIn } from '../platform/lib/json-path.ts';
import { selfSignedCertPath } from '../platform/lib/tls.ts';
import { errorMessage, isJsonObject } from '../platform/lib/type-guards.ts';
import { adminKeyPath } from '../platform/runtime/secrets.ts';

const ADMIN_REQUEST_TIMEOUT_MS = 15_000;

export interface AdminClient {
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

export interface ServerTrust {
  caFile?: string | null; // the certificate the server named in the data folder
  source?: string; // where baseUrl came from, said when nothing answers there
}

// The CLI reaches the running server over the admin API, so it works while PGlite is locked by the server.
export function adminClient(config: Config, baseUrl: string, trust: ServerTrust = {}): AdminClient {
  const adminKey = config.adminKey ?? readAdminKeyFile(config.dataDir);
  const certPath = config.tlsCertPath ?? trust.caFile ?? selfSignedCertPath(config.dataDir);
  const extraCa = existsSync(certPath) ? [readFileSync(certPath, 'utf8')] : [];
  const dispatcher = new Agent({
    // 'default': the bundled roots plus NODE_EXTRA_CA_CERTS (and the system's with --use-system-ca), e.g. mkcert's CA.
    connect: { ca: [...getCACertificates('default'), ...extraCa] },
    headersTimeout: ADMIN_REQUEST_TIMEOUT_MS,
    bodyTimeout: ADMIN_REQUEST_TIMEOUT_MS,
  });
  return {
    async call(method, path, body) {
      const url = `${baseUrl.replace(/\/$/, '')}/api/admin/v1${path}`;
      let response: Awaited<ReturnType<typeof request>>;
      try {
        response = await request(url, {
          method,
          dispatcher,
          headers: { authorization: `Bearer ${adminKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (error) {
        const from = trust.source === undefined ? '' : ` The URL came from ${trust.source}.`;
        throw new CliError(
          `cannot reach Payrail at ${baseUrl} (${errorMessage(error)}).${from} Is it running? Start it with npm start, or give --url URL`,
          EXIT_CODES.unreachable,
        );
      }
      const text = await response.body.text();
      const parsed = parseJson(text);
      if (response.statusCode !== 200) {
        const errors = objectsIn(parsed?.['errors']);
        const reason =
          errors.map((error) => `${String(error['code'])}: ${error['field'] ? `${String(error['field'])} ` : ''}${String(error['message'])}`).join('; ') ||
          text.slice(0, 200);
        throw new CliError(`${method} ${path} failed with HTTP ${response.statusCode}: ${reason}`, EXIT_CODES.failed);
      }
      if (!parsed) throw new CliError(`${method} ${path} answered with something that is not JSON`, EXIT_CODES.failed);
      return parsed;
    },
    close: () => dispatcher.close(),
  };
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
