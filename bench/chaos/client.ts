import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

// The load driver's HTTP client, through the balancer. Every 5xx is recorded with when its request ran, so the
// checks can tell a 5xx inside a kill window from one outside. A POST is retried with the same Idempotency-Key after
// a connection failure, a timeout, a 5xx or 409 idempotency_key_in_use, bounded in attempts and time.

const REQUEST_TIMEOUT_MS = 20_000;
const RETRY_ATTEMPTS_MAX = 12;
const RETRY_TIME_MAX_MS = 75_000;
const RETRY_PAUSE_MS = 700;

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  text: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface ServerError {
  status: number;
  method: string;
  path: string;
  from: number;
  to: number;
  code: string;
  requestId: string; // x-request-id: the line to look for in the process's output.log
}

export interface CallOptions {
  key?: string;
  json?: unknown;
  form?: Record<string, string>;
  idempotencyKey?: string;
  timeoutMs?: number;
  accept?: string;
}

export interface Retried {
  answer: Answer | null; // null: no definite answer within the bounds
  attempts: number;
  failures: { resets: number; timeouts: number; serverErrors: number; inUse: number };
}

export class Client {
  readonly serverErrors: ServerError[] = [];
  requests = 0;
  networkFailures = 0;
  readonly origin: string;
  private readonly agent: Agent;

  constructor(origin: string, ca: string) {
    this.origin = origin;
    this.agent = new Agent({ connect: { ca }, connections: 64, keepAliveTimeout: 4_000 });
  }

  async call(method: 'GET' | 'POST', path: string, options: CallOptions = {}): Promise<Answer> {
    return this.callAt(new URL(`${this.origin}${path}`), options, method);
  }

  // Any HTTPS origin whose certificate the CA signed (the sandbox adapter's 3-D Secure page, behind the proxy).
  async callAt(url: URL, options: CallOptions = {}, method: 'GET' | 'POST' = 'POST'): Promise<Answer> {
    const path = url.pathname;
    const headers: Record<string, string> = { accept: options.accept ?? 'application/json' };
    if (options.key !== undefined) headers['authorization'] = `Bearer ${options.key}`;
    if (options.idempotencyKey !== undefined) headers['idempotency-key'] = options.idempotencyKey;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form !== undefined) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const from = Date.now();
    this.requests += 1;
    const timeout = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    const response = await request(url, {
      method,
      headers,
      body: body ?? null,
      dispatcher: this.agent,
      headersTimeout: timeout,
      bodyTimeout: timeout,
    }).catch((error: unknown) => {
      this.networkFailures += 1;
      throw error;
    });
    const text = await response.body.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      // an HTML page (checkout) or an empty body
    }
    if (response.statusCode >= 500) {
      const code = (parsed['errors'] as { code?: string }[] | undefined)?.[0]?.code ?? '';
      const requestId = String(response.headers['x-request-id'] ?? '');
      this.serverErrors.push({ status: response.statusCode, method, path: path.replace(/[0-9a-f]{32}/g, ':token'), from, to: Date.now(), code, requestId });
    }
    return { status: response.statusCode, body: parsed, text, headers: response.headers };
  }

  // A POST retried with the same Idempotency-Key until it has a definite answer (below 500, not "in use").
  async retried(path: string, options: CallOptions & { idempotencyKey: string; firstTimeoutMs?: number }): Promise<Retried> {
    const failures = { resets: 0, timeouts: 0, serverErrors: 0, inUse: 0 };
    const started = Date.now();
    for (let attempt = 1; attempt <= RETRY_ATTEMPTS_MAX; attempt += 1) {
      const timeoutMs = attempt === 1 && options.firstTimeoutMs !== undefined ? options.firstTimeoutMs : options.timeoutMs;
      try {
        const answer = await this.call('POST', path, { ...options, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
        const inUse = answer.status === 409 && errorCodeOf(answer) === 'idempotency_key_in_use';
        if (answer.status < 500 && !inUse) return { answer, attempts: attempt, failures };
        if (inUse) failures.inUse += 1;
        else failures.serverErrors += 1;
      } catch (error) {
        if ((error as { code?: string }).code?.includes('TIMEOUT')) failures.timeouts += 1;
        else failures.resets += 1;
      }
      // After the load stopped, an operation still finishes (the checks need to know its outcome), within the bound.
      if (Date.now() - started > RETRY_TIME_MAX_MS) break;
      await sleep(RETRY_PAUSE_MS * Math.min(attempt, 4));
    }
    return { answer: null, attempts: RETRY_ATTEMPTS_MAX, failures };
  }

  async close(): Promise<void> {
    await this.agent.close().catch(() => {});
  }
}

export function errorCodeOf(answer: Answer): string {
  return (answer.body['errors'] as { code?: string }[] | undefined)?.[0]?.code ?? '';
}
