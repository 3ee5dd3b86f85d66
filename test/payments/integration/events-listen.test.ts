import { type ChildProcess, spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { runCli } from '../../support/cli.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const WAIT_MS = 20_000;
const TOLERANCE_S = 300;

// Issue 23: `payrail listen` forwards each sandbox event, with the very headers and body of a delivery, to a local
// endpoint and prints a line per event; `payrail trigger` makes the sandbox produce an event. Both run as their own
// processes against a running server, with the merchant's sandbox key and the server's self-signed certificate.
describe('payrail listen and payrail trigger against a running server', () => {
  let server: ServerHarness;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };
  let listener: ChildProcess | null = null;
  const printed: string[] = [];
  let environment: NodeJS.ProcessEnv;

  beforeAll(async () => {
    server = await startServerHarness('pglite');
    receiver = await startReceiver();
    merchant = await server.createMerchant('Listening merchant');
    // The data folder tells the CLI which certificate the server presents, as after `npm start`.
    environment = { PAYRAIL_DATA_DIR: server.running.app.payrail.config.dataDir };
  });
  afterAll(async () => {
    listener?.kill('SIGKILL');
    await receiver?.close();
    await server?.close();
  });

  const startListening = () => {
    const child = spawn(
      process.execPath,
      ['src/main.ts', 'listen', '--key', merchant.sandboxKey, '--forward-to', `${receiver.url}/forwarded`, '--url', server.baseUrl],
      { env: { ...process.env, PAYRAIL_PUBLIC_URL: '', PAYRAIL_ADMIN_KEY: '', ...environment }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let partial = '';
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      printed.push(...lines);
    });
    child.stderr!.on('data', (chunk: Buffer) => printed.push(`stderr: ${chunk.toString()}`));
    return child;
  };
  const verifies = (headers: Record<string, unknown>, body: string) =>
    verifyModernSignature(String(headers['x-payrail-signature']), body, merchant.sandboxKey, TOLERANCE_S, Math.floor(Date.now() / 1000));

  it('forwards a sandbox event to the local endpoint with the headers and body of its delivery, and prints a line', async () => {
    listener = startListening();
    await expect.poll(() => printed.join('\n'), { timeout: WAIT_MS, interval: 100 }).toContain('Ready: forwarding sandbox events');
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Listen test order',
        amount: 1200,
        currency: 'USD',
        callbackUrl: `${receiver.url}/delivered`,
        card: { pan: '4242 4242 4242 4242', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status).toBe(200);
    const token = created.body.token as string;

    const line = new RegExp(`^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z  payment\\.approved  ${token}  -> 200  \\d+ms$`);
    await expect.poll(() => printed.find((printedLine) => line.test(printedLine)), { timeout: WAIT_MS, interval: 100 }).toBeDefined();
    const [forwarded] = receiver.received.filter((item) => item.path === '/forwarded');
    expect(forwarded!.headers['content-type']).toBe('application/json');
    expect(forwarded!.headers['x-payrail-event-id']).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(forwarded!.headers['x-payrail-event-sequence']).toBe('1');
    expect(verifies(forwarded!.headers, forwarded!.body)).toBe(true);
    expect(JSON.parse(forwarded!.body)).toMatchObject({ token, type: 'pay', status: 'approved' });

    await expect.poll(() => receiver.received.filter((item) => item.path === '/delivered').length, { timeout: WAIT_MS }).toBe(1);
    const [delivered] = receiver.received.filter((item) => item.path === '/delivered');
    expect(forwarded!.body).toBe(delivered!.body);
    expect(forwarded!.headers['x-payrail-event-id']).toBe(delivered!.headers['x-payrail-event-id']);
  });

  it('triggers payment.approved: the payment is made, its event listed and forwarded by the listener', async () => {
    const triggered = await runCli(['trigger', 'payment.approved', '--key', merchant.sandboxKey, '--url', server.baseUrl], environment);
    expect(triggered.exitCode, triggered.stderr).toBe(0);
    const token = /^payment\.approved {2}([0-9a-f]{32})$/m.exec(triggered.stdout)?.[1];
    expect(token, triggered.stdout).toBeDefined();

    const listed = await server.call('GET', '/api/v1/events?type=payment.approved', { key: merchant.sandboxKey });
    expect(listed.body.events.map((event: { paymentToken: string }) => event.paymentToken)).toContain(token);
    await expect.poll(() => printed.some((line) => line.includes(`payment.approved  ${token}  -> 200`)), { timeout: WAIT_MS, interval: 100 }).toBe(true);
  });

  it('ends on Ctrl-C with exit code 0', async () => {
    const child = listener!;
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    listener = null;
  });

  it('refuses an unknown event type, listing the supported ones, and a production key', async () => {
    const unknown = await runCli(['trigger', 'payment.teleported', '--key', merchant.sandboxKey, '--url', server.baseUrl], environment);
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain('unknown event type "payment.teleported"; supported: payment.approved, payment.declined, refund.approved');
    const production = await runCli(['trigger', 'payment.approved', '--key', merchant.productionKey, '--url', server.baseUrl], environment);
    expect(production.exitCode).toBe(2);
    expect(production.stderr).toContain('sandbox merchant key');
    const noForward = await runCli(['listen', '--key', merchant.sandboxKey, '--url', server.baseUrl], environment);
    expect(noForward.exitCode).toBe(2);
    expect(noForward.stderr).toContain('--forward-to is required');
  });
});
