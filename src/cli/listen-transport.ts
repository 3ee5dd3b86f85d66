import { existsSync, readFileSync } from 'node:fs';
import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { getCACertificates } from 'node:tls';
import type { Config } from '../platform/config.ts';
import { selfSignedCertPath } from '../platform/lib/tls.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';
import { locateServer } from './server-location.ts';

const MERCHANT_REQUEST_TIMEOUT_MS = 30_000;
const FORWARD_TIMEOUT_MS = 10_000;
const ANSWER_BYTES_MAX = 1024 * 1024;
const SANDBOX_KEY_PATTERN = /^sk_sandbox_[A-Za-z0-9_-]{16,200}$/;

// `payrail listen` and `payrail trigger` call the merchant API with a sandbox merchant key (never the admin key), at
// the server the admin commands find (server-location.ts), trusting its certificate as they do (admin-client.ts).
export interface MerchantServer {
  url: string;
  source: string; // where url came from
  call(method: 'GET' | 'POST', path: string, body?: { contentType: string; text: string }): Promise<{ status: number; json: Record<string, unknown> | null }>;
  openStream(path: string, headers: Record<string, string>): { response: Promise<IncomingMessage>; abort(): void };
  close(): void;
}

export function readSandboxKey(key: string | undefined): string {
  if (key === undefined) throw new CliError('--key is required: a sandbox merchant key (sk_sandbox_…)');
  if (!SANDBOX_KEY_PATTERN.test(key))
    throw new CliError('--key must be a sandbox merchant key (sk_sandbox_…): events are streamed and triggered in the sandbox only');
  return key;
}

export function merchantServer(config: Config, urlOption: string | undefined, key: string): MerchantServer {
  const location = locateServer(config, urlOption, process.env);
  const base = location.url.replace(/\/$/, '');
  const certPath = config.tlsCertPath ?? location.caFile ?? selfSignedCertPath(config.dataDir);
  const extraCa = existsSync(certPath) ? [readFileSync(certPath, 'utf8')] : [];
  const secure = new URL(base).protocol === 'https:';
  const agent = secure ? new HttpsAgent({ keepAlive: true, ca: [...getCACertificates('default'), ...extraCa] }) : new HttpAgent({ keepAlive: true });
  const send = secure ? httpsRequest : httpRequest;
  const authorization = `Bearer ${key}`;
  return {
    url: base,
    source: location.source,
    async call(method, path, body) {
      const headers: Record<string, string> = { authorization, ...(body ? { 'content-type': body.contentType } : {}) };
      let answer: { status: number; text: string };
      try {
        answer = await exchange(send, `${base}${path}`, { method, agent, headers, body: body?.text, timeoutMs: MERCHANT_REQUEST_TIMEOUT_MS });
      } catch (error) {
        throw new CliError(`cannot reach Payrail at ${base} (${(error as Error).message}); the URL came from ${location.source}`, EXIT_CODES.unreachable);
      }
      return { status: answer.status, json: parseObject(answer.text) };
    },
    openStream(path, headers) {
      let sent: ReturnType<typeof httpRequest> | null = null;
      const response = new Promise<IncomingMessage>((resolve, reject) => {
        sent = send(`${base}${path}`, { method: 'GET', agent, headers: { authorization, accept: 'text/event-stream', ...headers } }, resolve);
        sent.on('error', reject);
        sent.end();
      });
      return { response, abort: () => sent?.destroy() };
    },
    close: () => agent.destroy(),
  };
}

// POSTs one event to the merchant's local endpoint: its HTTP status, or why there was none.
export async function forwardEvent(url: string, headers: Record<string, string>, bodyText: string): Promise<{ status: number } | { error: string }> {
  const send = new URL(url).protocol === 'https:' ? httpsRequest : httpRequest;
  try {
    const answer = await exchange(send, url, { method: 'POST', agent: undefined, headers, body: bodyText, timeoutMs: FORWARD_TIMEOUT_MS });
    return { status: answer.status };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

interface Outgoing {
  method: string;
  agent: HttpAgent | undefined;
  headers: Record<string, string>;
  body: string | undefined;
  timeoutMs: number;
}

function exchange(send: typeof httpRequest, url: string, outgoing: Outgoing): Promise<{ status: number; text: string }> {
  const { method, agent, headers, body, timeoutMs } = outgoing;
  return new Promise((resolve, reject) => {
    const sent = send(url, { method, agent, headers, timeout: timeoutMs }, (response) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes <= ANSWER_BYTES_MAX) chunks.push(chunk); // the rest is read and dropped
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    sent.on('timeout', () => sent.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    sent.on('error', reject);
    sent.end(body);
  });
}

function parseObject(text: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
