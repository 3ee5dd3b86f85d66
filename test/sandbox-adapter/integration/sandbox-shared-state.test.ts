import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';
import {
  adapterCall,
  callbacksOf,
  MERCHANT_PRIVATE_KEY,
  refundBody,
  startSandboxFixture,
  statusBody,
  tokenOfBody,
  verifyCallback,
  type SandboxFixture,
} from './sandbox-support.ts';

// The sandbox's open transactions live in the database: several api processes share them (here, app instances
// with their own connection pools on PostgreSQL) and a restart keeps them, the asynchronous approval included.

const engines = await testEngines();

const completeForm = (gatewayToken: string, outcome: 'success' | 'failure') => ({
  method: 'POST' as const,
  url: `/sandbox-adapter/3ds/${gatewayToken}/complete`,
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  payload: `outcome=${outcome}`,
});

interface StoredRow {
  status: string;
  callback_key_sealed: string | null;
  callback_due_at: Date | string | null;
  request_fingerprint: string;
}

describe.each(engines)('sandbox transactions shared by api processes on %s', (engine) => {
  let sandbox: SandboxFixture;

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: 200 });
  });
  afterAll(async () => sandbox?.close());

  const storedRow = async (token: string) =>
    (await queryRows<StoredRow>(sandbox.database, sql`select * from sandbox_transactions where payment_token = ${token}`))[0]!;

  it('completes through a second instance what the first started: 3-D Secure page, callback, status, refund', async () => {
    const first = sandbox.app;
    const second = await sandbox.anotherApp();
    const body = sandbox.payBody({ pan: '4000 0000 0000 3220', callbackUrl: sandbox.receiver.url, amount: 6400, currency: 'EUR' });
    const token = tokenOfBody(body);
    const pay = await adapterCall(first, 'pay', body);
    expect(pay.answer).toMatchObject({ result: true, status: 'pending' });
    const gatewayToken = pay.answer.gateway_token!;

    const page = await second.inject({ method: 'GET', url: `/sandbox-adapter/3ds/${gatewayToken}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Authentication successful');
    const completed = await second.inject(completeForm(gatewayToken, 'success'));
    expect(completed.statusCode).toBe(303);
    expect(completed.headers.location).toBe(sandbox.processingUrl);
    expect((await first.inject(completeForm(gatewayToken, 'failure'))).statusCode).toBe(303); // too late: decided

    const [callback] = await callbacksOf(sandbox.receiver, gatewayToken);
    expect((await verifyCallback(callback!)).claims).toMatchObject({ status: 'approved', amount: 6400, currency: 'EUR', gateway_token: gatewayToken });
    expect((await adapterCall(first, 'status', statusBody(token, gatewayToken))).answer).toMatchObject({ result: true, status: 'approved' });
    expect((await adapterCall(second, 'refund', refundBody(token, 4000))).answer).toMatchObject({ status: 'approved', amount: 4000 });
    expect((await adapterCall(first, 'refund', refundBody(token))).answer).toMatchObject({ status: 'approved', amount: 2400 });
    expect((await adapterCall(second, 'refund', refundBody(token, 1))).answer).toMatchObject({
      status: 'declined',
      details: 'the payment is already fully refunded',
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await callbacksOf(sandbox.receiver, gatewayToken)).toHaveLength(1);
  });

  it('answers a repeated /pay through another instance with the same transaction, and a different one with a refusal', async () => {
    const second = await sandbox.anotherApp();
    const body = sandbox.payBody({ pan: '4242 4242 4242 4242' });
    const first = await adapterCall(sandbox.app, 'pay', body);
    expect((await adapterCall(second, 'pay', body)).answer).toMatchObject({ result: true, status: 'approved', gateway_token: first.answer.gateway_token });
    const different = { ...body, payment: { ...(body['payment'] as object), gateway_amount: 1 } };
    expect((await adapterCall(second, 'pay', different)).answer).toMatchObject({
      result: false,
      error: 'payment.token is already used by a different sandbox request',
    });
  });

  it('sends the asynchronous approval once, although several instances poll for it', async () => {
    await sandbox.anotherApp();
    await sandbox.anotherApp();
    const pay = await adapterCall(sandbox.app, 'pay', sandbox.payBody({ pan: '4000 0000 0000 1018', callbackUrl: sandbox.receiver.url }));
    const gatewayToken = pay.answer.gateway_token!;
    await callbacksOf(sandbox.receiver, gatewayToken);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(await callbacksOf(sandbox.receiver, gatewayToken)).toHaveLength(1);
  });

  it('keeps the merchant key sealed while the callback is due and drops it once it is sent; the fingerprint does not hold the PAN', async () => {
    const body = sandbox.payBody({ pan: '4000 0000 0000 1018', callbackUrl: sandbox.receiver.url });
    const pay = await adapterCall(sandbox.app, 'pay', body);
    const waiting = await storedRow(tokenOfBody(body));
    expect(waiting.status).toBe('pending');
    expect(waiting.callback_due_at).not.toBeNull();
    expect(waiting.callback_key_sealed).toEqual(expect.any(String));
    expect(JSON.stringify(waiting)).not.toContain(MERCHANT_PRIVATE_KEY);
    expect(JSON.stringify(waiting)).not.toContain('4000000000001018');

    await callbacksOf(sandbox.receiver, pay.answer.gateway_token!);
    await expect.poll(async () => (await storedRow(tokenOfBody(body))).callback_key_sealed, { timeout: 5000 }).toBeNull();
    expect(await storedRow(tokenOfBody(body))).toMatchObject({ status: 'approved', callback_due_at: null });
  });
});

describe.each(engines)('the asynchronous approval survives a restart on %s', (engine) => {
  let sandbox: SandboxFixture;
  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: 600 });
  });
  afterAll(async () => sandbox?.close());

  it('is delivered by the process started after the one that took the payment stopped', async () => {
    const pay = await adapterCall(sandbox.app, 'pay', sandbox.payBody({ pan: '4000 0000 0000 1018', callbackUrl: sandbox.receiver.url }));
    expect(pay.answer).toMatchObject({ result: true, status: 'pending' });
    await sandbox.closeApp(sandbox.app); // stops before the approval is due
    await new Promise((resolve) => setTimeout(resolve, 900));
    expect(sandbox.receiver.received).toHaveLength(0); // nobody was running to send it

    await sandbox.anotherApp(); // the restart
    const [callback] = await callbacksOf(sandbox.receiver, pay.answer.gateway_token!);
    expect((await verifyCallback(callback!)).claims).toMatchObject({ status: 'approved', gateway_token: pay.answer.gateway_token });
  });
});

// A business service that keeps the first callback waiting (as if the process sending it were stopped mid-way).
async function startStallingReceiver(): Promise<{ origin: string; url: string; answered: string[]; close(): Promise<void> }> {
  const answered: string[] = [];
  let seen = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen += 1;
      if (seen === 1) return; // never answered
      answered.push(Buffer.concat(chunks).toString('utf8'));
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    url: `${origin}/provider-callback`,
    answered,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(engines)('a callback interrupted by a stop on %s', (engine) => {
  it('is handed back when the sandbox stops while sending it, and sent after the restart', async () => {
    const stalling = await startStallingReceiver();
    const sandbox = await startSandboxFixture(engine, { asyncApprovalDelayMs: 50, allowedOrigin: stalling.origin });
    try {
      const pay = await adapterCall(
        sandbox.app,
        'pay',
        sandbox.payBody({ pan: '4000 0000 0000 1018', processingUrl: `${stalling.origin}/r`, callbackUrl: stalling.url }),
      );
      expect(pay.answer).toMatchObject({ result: true, status: 'pending' });
      await new Promise((resolve) => setTimeout(resolve, 400)); // claimed and being sent, unanswered
      expect(stalling.answered).toHaveLength(0);
      await sandbox.closeApp(sandbox.app);

      await sandbox.anotherApp();
      await expect.poll(() => stalling.answered.length, { timeout: 5000 }).toBe(1);
      expect(stalling.answered[0]).toContain(pay.answer.gateway_token!);
    } finally {
      await sandbox.close();
      await stalling.close();
    }
  });
});
