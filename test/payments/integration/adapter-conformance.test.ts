import { execFile } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callbackRequestOf } from '../../../packages/adapter-kit/src/callback-crypto.ts';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '../../../packages/adapter-kit/src/conformance/index.ts';
import { adapterHttpServer } from '../../../packages/adapter-kit/src/http-server.ts';
import type { AdapterAnswer } from '../../../packages/adapter-kit/src/response-schema.ts';
import { startSandboxAdapter, type RunningSandboxAdapter } from '../../../src/sandbox-adapter/server.ts';
import { openTestDatabase, testEngines, type TestDatabase } from '../../support/databases.ts';
import { SANDBOX_SECRET } from '../../sandbox-adapter/integration/sandbox-support.ts';

// The conformance suite (packages/adapter-kit/src/conformance) against the real sandbox adapter, started alone as
// `payrail start --role sandbox-adapter` starts it; and against adapters broken on purpose, each a real HTTP server,
// to show that the suite fails what it must.

const engines = await testEngines();
const execFileAsync = promisify(execFile);
const MAIN_TS = fileURLToPath(new URL('../../../src/main.ts', import.meta.url));
const SIGN_KEY = 'conformance-sign-key-0123456789a'; // 32 characters
const CARDS = { cardApprove: '4242424242424242', cardDecline: '4000000000000002', cardCallback: '4000000000001018', cardPayout: '5555555555554444' };
const TIMEOUT_MS = 5000;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const failed = (report: ConformanceReport) => report.checks.filter((check) => check.outcome === 'fail');
const outcomeOf = (report: ConformanceReport, name: string) => report.checks.find((check) => check.name === name)?.outcome;

describe.each(engines)('the sandbox adapter is conformant on %s', (engine) => {
  let testDatabase: TestDatabase;
  let sandbox: RunningSandboxAdapter;
  let callbackPort: number;

  beforeAll(async () => {
    testDatabase = await openTestDatabase(engine);
    callbackPort = await freePort();
    // The sandbox sends customers and callbacks only to Payrail's origin: here, the suite's own listener.
    sandbox = await startSandboxAdapter({
      host: '127.0.0.1',
      port: 0,
      publicBaseUrl: 'http://127.0.0.1/sandbox-adapter',
      allowedOrigin: `http://127.0.0.1:${callbackPort}`,
      secret: SANDBOX_SECRET,
      db: testDatabase.database.db,
      asyncApprovalDelayMs: 50,
      callbackPollMs: 20,
      logLevel: false,
    });
  });
  afterAll(async () => {
    await sandbox?.stop();
    await testDatabase?.drop();
  });

  it('passes every check, callbacks verified', async () => {
    const report = await runConformance({ url: sandbox.url, signKey: SANDBOX_SECRET, callbackPort, timeoutMs: TIMEOUT_MS, ...CARDS });
    expect(failed(report)).toEqual([]);
    expect(report.passed).toBe(true);
    const expectedPasses = [
      'pay/http-200',
      'pay/reply-shape',
      'pay/logs',
      'pay/within-timeout',
      'pay/accepted',
      'pay-decline/reason',
      'payout/reply-shape',
      'status/reply-shape',
      'status-unknown/answer',
      'refund/reply-shape',
      'pay-malformed/refused',
      'pay-not-json/refused',
      'signature/wrong/refused',
      'signature/missing/refused',
      ...['pay-repeat/same-payment', 'status/amount', 'status-no-gateway-token/amount', 'amount/JPY-1000/status', 'amount/USD-19.99/status'],
      ...['pay-without-card/reply-shape', 'pay-bank-account/reply-shape'],
      'answers/decline-reason',
      'callback/pending-card',
      'callback/all-verify',
    ];
    for (const name of expectedPasses) expect({ name, outcome: outcomeOf(report, name) }).toEqual({ name, outcome: 'pass' });
    // The sandbox is its own provider: what only the provider side shows is not observed (a later /status is no proof).
    const skipped = report.checks.filter((check) => check.outcome === 'skip').map((check) => check.name);
    expect(skipped).toEqual(['provider-5xx/answer', 'provider-timeout/answer', 'signature/wrong/not-processed', 'signature/missing/not-processed']);
  });

  it('passes as `payrail adapter-check` too, exiting 0 with a JSON report', async () => {
    const { stdout } = await execFileAsync(process.execPath, [
      MAIN_TS,
      'adapter-check',
      '--url',
      sandbox.url,
      '--sign-key',
      SANDBOX_SECRET,
      '--callback-port',
      String(callbackPort),
      '--timeout-ms',
      String(TIMEOUT_MS),
      '--card-decline',
      CARDS.cardDecline,
      '--card-payout',
      CARDS.cardPayout,
      '--provider-url-setting',
      'gateway_settings.provider_url', // the sandbox is its own provider: it never calls the stub put there
      '--json',
    ]);
    const report = JSON.parse(stdout) as ConformanceReport;
    expect(report.passed).toBe(true);
    expect(report.checks.find((check) => check.name === 'provider-5xx/answer')?.reason).toMatch(/^the adapter never called the provider stub/);
    expect(outcomeOf(report, 'pay-decline/reason')).toBe('pass');
    expect(outcomeOf(report, 'callback/pending-card')).toBe('skip'); // no --card-callback given
  });

  it('fails when it signs with a key the sandbox does not hold: every valid call is refused', async () => {
    const report = await runConformance({ url: sandbox.url, signKey: SIGN_KEY, callbackPort, timeoutMs: TIMEOUT_MS, methods: ['pay', 'status'] });
    expect(report.passed).toBe(false);
    expect(outcomeOf(report, 'pay/reply-shape')).toBe('pass'); // a well-formed refusal…
    expect(failed(report).find((item) => item.name === 'pay/accepted')?.reason).toContain('invalid X-SIGNATURE');
    expect(outcomeOf(report, 'status/http-200')).toBe('skip'); // …so there is no payment to ask about
  });
});

// A real HTTP server whose every answer the test decides.
interface FakeAdapter {
  url: string;
  close(): Promise<void>;
}

type Respond = (method: string, body: Record<string, unknown> | null, signed: boolean) => Promise<{ statusCode: number; body: unknown }>;

async function startFakeAdapter(respond: Respond): Promise<FakeAdapter> {
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      let body: Record<string, unknown> | null = null;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      } catch {
        body = null;
      }
      const method = (request.url ?? '/').slice(1);
      const answer = await respond(method, body, typeof request.headers['x-signature'] === 'string');
      response.writeHead(answer.statusCode, { 'content-type': 'application/json' }).end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const LOG = { kind: 'pay', request: { url: 'https://provider.example/charge' }, status: 200, duration: 0.01 };
const approved = (body: Record<string, unknown> | null) => ({
  result: true,
  status: 'approved',
  gateway_token: `gw_${String((body?.['payment'] as { token?: string } | undefined)?.token)}`,
  amount: 1000,
  currency: 'USD',
  logs: [LOG],
});

describe('the conformance suite fails a broken adapter', () => {
  const adapters: FakeAdapter[] = [];
  afterAll(async () => {
    for (const adapter of adapters) await adapter.close();
  });
  async function check(respond: Respond, options: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> {
    const adapter = await startFakeAdapter(respond);
    adapters.push(adapter);
    return runConformance({ url: adapter.url, signKey: SIGN_KEY, timeoutMs: 2000, callbackWaitMs: 500, ...options });
  }

  it('that answers HTTP 500', async () => {
    const report = await check(async () => ({ statusCode: 500, body: { error: 'boom' } }));
    expect(report.passed).toBe(false);
    expect(outcomeOf(report, 'pay/http-200')).toBe('fail');
    expect(failed(report).find((item) => item.name === 'pay/http-200')?.reason).toContain('HTTP 500');
    expect(outcomeOf(report, 'pay-malformed/http-200')).toBe('fail');
  });

  it('that leaves logs out', async () => {
    const report = await check(async (_method, body, signed) => {
      const { logs: _logs, ...answer } = approved(body);
      return { statusCode: 200, body: signed && body !== null && body['payment'] !== undefined ? answer : { result: false, error: 'refused' } };
    });
    expect(outcomeOf(report, 'pay/logs')).toBe('fail');
    expect(outcomeOf(report, 'pay/reply-shape')).toBe('fail'); // logs is required by the response schema
    expect(report.passed).toBe(false);
  });

  it('that processes calls whose X-SIGNATURE is wrong or missing', async () => {
    const report = await check(async (_method, body) => ({
      statusCode: 200,
      body: body === null ? { result: false, error: 'not JSON', logs: [LOG] } : approved(body),
    }));
    expect(outcomeOf(report, 'signature/wrong/refused')).toBe('fail');
    expect(outcomeOf(report, 'signature/missing/refused')).toBe('fail');
    expect(outcomeOf(report, 'pay-malformed/refused')).toBe('fail');
    expect(report.passed).toBe(false);
  });

  it('that declines without a reason', async () => {
    const report = await check(async (_method, body) => ({ statusCode: 200, body: { ...approved(body), status: 'declined' } }), {
      cardDecline: '4000000000000002',
      validateSignature: false,
    });
    expect(outcomeOf(report, 'pay-decline/reason')).toBe('fail');
    expect(outcomeOf(report, 'answers/decline-reason')).toBe('fail');
  });

  it('that answers too late', async () => {
    const report = await check(
      async (_method, body) => {
        await new Promise((resolve) => setTimeout(resolve, 1500));
        return { statusCode: 200, body: approved(body) };
      },
      { timeoutMs: 300, methods: ['pay'], validateSignature: false },
    );
    expect(outcomeOf(report, 'pay/within-timeout')).toBe('fail');
    expect(failed(report).find((item) => item.name === 'pay/within-timeout')?.reason).toBe('no answer within 300 ms');
  });

  it('that signs its callback with another key, or puts another merchant key in `secure`', async () => {
    for (const mistake of ['key', 'secure'] as const) {
      const report = await check(
        async (method, body) => {
          if (method === 'pay' && body !== null && typeof body['callback_url'] === 'string') {
            const payment = body['payment'] as { merchant_private_key: string };
            const signKey = mistake === 'key' ? 'some-other-key-0123456789abcdefg' : SIGN_KEY;
            const merchantKey = mistake === 'secure' ? 'sk_someone_else' : payment.merchant_private_key;
            const callback = await callbackRequestOf(signKey, merchantKey, { status: 'approved', amount: 1000, currency: 'USD', gateway_token: 'gw_1' });
            void fetch(body['callback_url'], {
              method: 'POST',
              headers: { authorization: callback.authorization, 'content-type': 'application/json' },
              body: callback.bodyText,
            });
            return { statusCode: 200, body: { result: true, status: 'pending', gateway_token: 'gw_1', logs: [LOG] } };
          }
          return { statusCode: 200, body: { result: false, error: 'unknown', logs: [LOG] } };
        },
        { cardCallback: '4000000000001018', methods: ['pay'], validateSignature: false, callbackWaitMs: 2000 },
      );
      const reason = failed(report).find((item) => item.name === 'callback/pending-card')?.reason;
      expect(reason).toContain(mistake === 'key' ? 'does not verify as HS512' : 'not to the merchant_private_key');
    }
  });

  it('and passes a minimal adapter built on the kit', async () => {
    const transactions = new Map<string, AdapterAnswer>();
    const app = await adapterHttpServer({
      signKey: SIGN_KEY,
      handlers: {
        pay: async (request) => {
          const declined = request.params.pan === '4000000000000002';
          const answer: AdapterAnswer = declined
            ? { result: true, status: 'declined', gateway_token: `gw_${request.payment.token}`, details: 'Do not honor' }
            : {
                result: true,
                status: 'approved',
                gateway_token: `gw_${request.payment.token}`,
                amount: request.payment.gateway_amount,
                currency: request.payment.gateway_currency,
              };
          transactions.set(request.payment.token, answer);
          return answer;
        },
        status: async (request) => {
          const known = transactions.get(request.payment.token);
          return known === undefined ? { result: false, error: 'unknown transaction' } : known;
        },
      },
    });
    await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const { port } = app.server.address() as AddressInfo;
      const report = await runConformance({ url: `http://127.0.0.1:${port}`, signKey: SIGN_KEY, methods: ['pay', 'status'], cardDecline: '4000000000000002' });
      expect(failed(report)).toEqual([]);
      expect(outcomeOf(report, 'amount/KWD-12.345/status')).toBe('pass');
    } finally {
      await app.close();
    }
  });
});
