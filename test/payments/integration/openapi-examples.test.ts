import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../../../src/platform/config.ts';
import { operationsInOrder } from '../../../src/platform/lib/openapi-operation-order.ts';
import { type RunningApi, startApi } from '../../../src/platform/runtime/start-api.ts';
import { queryRows } from '../../support/sql.ts';

// A newcomer's "Try it out": a fresh embedded `npm start` with its demo seed, then every documented example in the
// order Swagger UI lists it, with the demo's credentials. Each must succeed, or answer the very error the operation
// says its example shows (`x-example-answers`).

const STARTS_A_SERVICE_MS = 120_000;
type Json = Record<string, unknown>;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address !== null && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

interface Credentials {
  merchantKey: string;
  adminKey: string;
  sessionToken: string;
  appToken: string;
  preSession: string;
}

describe('every documented example on a fresh demo server', { timeout: STARTS_A_SERVICE_MS }, () => {
  let dataDir: string;
  let running: RunningApi;
  let agent: Agent;
  let baseUrl: string;
  const lines: string[] = [];
  const credentials: Credentials = { merchantKey: '', adminKey: '', sessionToken: '', appToken: '', preSession: '' };

  async function send(method: string, path: string, headers: Record<string, string>, body?: string | Buffer) {
    const response = await request(`${baseUrl}${path}`, { method: method.toUpperCase() as 'GET', headers, body, dispatcher: agent });
    const text = await response.body.text();
    return { status: response.statusCode, text, json: () => JSON.parse(text) as Json };
  }

  async function signInCode(): Promise<string> {
    const messages = await send('get', '/api/admin/v1/user-messages?limit=1', { authorization: `Bearer ${credentials.adminKey}` });
    const body = String((messages.json()['messages'] as Json[])[0]?.['body'] ?? '');
    return /\b(\d{6})\b/.exec(body)?.[1] ?? '';
  }

  async function signIn(): Promise<void> {
    const login = await send(
      'post',
      '/api/v2/auth/login',
      { 'content-type': 'application/json' },
      JSON.stringify({ login: 'ada@example.com', password: 'correct horse battery staple' }),
    );
    const preSession = String(login.json()['session_token'] ?? login.json()['token']);
    const confirmed = await send(
      'post',
      '/api/v2/auth/login/confirm',
      { 'content-type': 'application/json', 'session-token': preSession },
      JSON.stringify({ confirmation_code: await signInCode(), time_to_live: 1, confirmed: true, method: null }),
    );
    credentials.sessionToken = String(confirmed.json()['session_token'] ?? confirmed.json()['token']);
  }

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-openapi-examples-'));
    const port = await freePort();
    const config = loadConfig({ HOST: '127.0.0.1', PORT: String(port), PAYRAIL_DATA_DIR: dataDir, PAYRAIL_LOG_LEVEL: 'silent' });
    running = await startApi(config, (line) => lines.push(line));
    baseUrl = `https://localhost:${port}`;
    agent = new Agent({ connect: { ca: readFileSync(join(dataDir, 'tls', 'cert.pem'), 'utf8') } });
    credentials.merchantKey = /sandbox key \(shown once\): (sk_sandbox_\S+)/.exec(lines.join('\n'))?.[1] ?? '';
    credentials.adminKey = readFileSync(join(dataDir, 'admin.key'), 'utf8').trim();
    const appToken = await send(
      'post',
      '/api/admin/v1/app-tokens',
      { authorization: `Bearer ${credentials.adminKey}`, 'content-type': 'application/json' },
      '{"name":"try-it-out"}',
    );
    credentials.appToken = String((appToken.json()['app_token'] as Json)['token']);
    // A person reaches "send the code again" more than OTP_RESEND_INTERVAL_MS after the payment asked for it; the
    // seed's payment asked a moment ago.
    const askedBefore = JSON.stringify(new Date(Date.now() - 60_000).toISOString());
    await queryRows(
      running.app.payrail.database,
      sql`update payments set pending_step = jsonb_set(pending_step, '{askedAt}', ${askedBefore}::jsonb) where pending_step is not null`,
    );
  });
  afterAll(async () => {
    await agent?.close();
    await running?.stop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves the document at /openapi.json and /docs/json, its tags starting with payments', async () => {
    const served = await send('get', '/openapi.json', {});
    const underDocs = await send('get', '/docs/json', {});
    expect(served.status).toBe(200);
    expect(underDocs.status).toBe(200);
    const document = served.json();
    expect((document['tags'] as { name: string }[]).map((tag) => tag.name).slice(0, 2)).toEqual(['payments', 'sandbox']);
    expect(operationsInOrder(document as { paths: Record<string, Json> })[0]?.operation['operationId']).toBe('createPayment');
  });

  it('answers every example as documented, in document order', async () => {
    const document = (await send('get', '/openapi.json', {})).json() as { paths: Record<string, Json> };
    const failures: string[] = [];
    for (const { path, method, operation } of operationsInOrder(document)) {
      for (const attempt of attemptsOf(path, operation)) {
        const operationId = String(operation['operationId']);
        if (operationId === 'coreConfirmLogin' && attempt.body !== undefined) {
          attempt.body = JSON.stringify({ ...(JSON.parse(String(attempt.body)) as Json), confirmation_code: await signInCode() });
        }
        // merchant_private_key is a credential like the others: the person types their merchant key in.
        attempt.url = attempt.url.replace(/merchant_private_key=[^&]*/, `merchant_private_key=${encodeURIComponent(credentials.merchantKey)}`);
        if (typeof attempt.body === 'string' && attempt.body.includes('"merchant_private_key"')) {
          attempt.body = JSON.stringify({ ...(JSON.parse(attempt.body) as Json), merchant_private_key: credentials.merchantKey });
        }
        const headers = { ...attempt.headers, ...credentialHeaders(operation, operationId) };
        const answer = await send(method, attempt.url, headers, attempt.body);
        if (operationId === 'coreLogin' && answer.status === 200) credentials.preSession = String(answer.json()['session_token'] ?? answer.json()['token']);
        if (operationId === 'coreConfirmLogin' && answer.status === 200)
          credentials.sessionToken = String(answer.json()['session_token'] ?? answer.json()['token']);
        const expected = operation['x-example-answers'] as { status: number; code: string } | undefined;
        const ok =
          expected === undefined
            ? answer.status >= 200 && answer.status < 300
            : answer.status === expected.status && answer.text.includes(`"${expected.code}"`);
        if (!ok) failures.push(`${operationId} ${method.toUpperCase()} ${attempt.url} -> ${answer.status} ${answer.text.slice(0, 200)}`);
        if (operationId === 'coreLogout' || operationId === 'coreLogoutAll') await signIn();
      }
    }
    expect(failures).toEqual([]);
  });

  function credentialHeaders(operation: Json, operationId: string): Record<string, string> {
    const schemes = ((operation['security'] as Json[] | undefined) ?? []).flatMap((requirement) => Object.keys(requirement));
    if (schemes.includes('merchantKey')) return { authorization: `Bearer ${credentials.merchantKey}` };
    if (schemes.includes('adminKey')) return { authorization: `Bearer ${credentials.adminKey}` };
    if (schemes.includes('appToken')) return { 'app-token': credentials.appToken };
    if (schemes.includes('sessionToken')) return { 'session-token': operationId === 'coreConfirmLogin' ? credentials.preSession : credentials.sessionToken };
    return {};
  }
});

interface Attempt {
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

const EVIDENCE_PDF = '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

// The requests Swagger UI makes of an operation's examples: one per body example, its parameters' examples filled in.
function attemptsOf(path: string, operation: Json): Attempt[] {
  const parameters = (operation['parameters'] as Json[] | undefined) ?? [];
  let url = path;
  const query = new URLSearchParams();
  for (const parameter of parameters) {
    if (parameter['example'] === undefined) continue;
    if (parameter['in'] === 'path') url = url.replace(`{${String(parameter['name'])}}`, encodeURIComponent(String(parameter['example'])));
    if (parameter['in'] === 'query') query.set(String(parameter['name']), String(parameter['example']));
  }
  if (query.size > 0) url = `${url}?${query.toString()}`;
  const content = ((operation['requestBody'] as Json | undefined)?.['content'] as Record<string, Json> | undefined) ?? {};
  const json = content['application/json'];
  if (json !== undefined) {
    const examples = json['examples'] as Record<string, { value: unknown }> | undefined;
    const bodies = examples !== undefined ? Object.values(examples).map((example) => example.value) : [json['example'] ?? {}];
    return bodies.map((body) => ({ url, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  }
  const multipart = content['multipart/form-data'];
  if (multipart !== undefined) {
    // Swagger UI sends the example's text fields and the file a person picks for each binary field.
    const boundary = 'try-it-out';
    const properties = ((multipart['schema'] as Json | undefined)?.['properties'] as Record<string, Json> | undefined) ?? {};
    const isFile = (property: Json | undefined) => property?.['format'] === 'binary' || (property?.['items'] as Json | undefined)?.['format'] === 'binary';
    const example = (multipart['example'] as Json | undefined) ?? {};
    const fields = Object.entries(example)
      .filter(([name]) => !isFile(properties[name]))
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${String(value)}\r\n`)
      .join('');
    const files = Object.entries(properties)
      .filter(([, property]) => isFile(property))
      .map(
        ([name]) =>
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="evidence.pdf"\r\nContent-Type: application/pdf\r\n\r\n${EVIDENCE_PDF}\r\n`,
      )
      .join('');
    return [{ url, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body: `${fields}${files}--${boundary}--\r\n` }];
  }
  return [{ url, headers: {} }];
}
