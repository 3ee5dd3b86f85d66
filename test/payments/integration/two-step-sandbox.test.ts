import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { queryRows } from '../../support/sql.ts';
import {
  adapterCall,
  refundBody,
  settingsBlock,
  signatureOf,
  startSandboxFixture,
  statusBody,
  type SandboxFixture,
} from '../../sandbox-adapter/integration/sandbox-support.ts';

const engines = await testEngines();
const DAY_MS = 24 * 3_600_000;

// The sandbox acquirer's side of two-step payments: /pay with params.need_confirmation authorizes, then
// /confirm_request captures (at most the authorized amount) or /decline_request voids, each once.
describe.each(engines)('sandbox adapter: confirm_request and decline_request on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
  });
  afterAll(async () => sandbox?.close());

  const signedCall = async (method: 'confirm_request' | 'decline_request', body: unknown, signature?: string) => {
    const payload = JSON.stringify(body);
    const response = await app.inject({
      method: 'POST',
      url: `/sandbox-adapter/${method}`,
      headers: { 'content-type': 'application/json', 'x-signature': signature ?? signatureOf(payload) },
      payload,
    });
    expect(response.statusCode).toBe(200); // spec 7.3: always 200
    return response.json() as {
      result: boolean;
      status?: string;
      amount?: number;
      currency?: string;
      details?: string;
      error?: string;
      gateway_token?: string;
    };
  };
  const confirmBody = (token: string, amount: number, extra: Record<string, unknown> = {}) => ({
    method_name: 'confirm_request',
    payment: { token, amount, currency: 'USD', ...extra },
    settings: settingsBlock(),
  });
  const declineBody = (token: string, extra: Record<string, unknown> = {}) => ({
    method_name: 'decline_request',
    payment: { token, amount: 1250, currency: 'USD', ...extra },
    settings: settingsBlock(),
  });
  const authorize = async (pan = '4242 4242 4242 4242') => {
    const body = sandbox.payBody({ pan }) as { params: Record<string, unknown>; payment: { token: string } };
    body.params['need_confirmation'] = true;
    const paid = await adapterCall(app, 'pay', body);
    return { token: body.payment.token, answer: paid.answer };
  };
  const rowOf = async (token: string) =>
    (
      await queryRows<{ status: string; confirmation: string | null; amount: string; expires_at: Date | string }>(
        sandbox.database,
        sql`select status, confirmation, amount_minor::text as amount, expires_at from sandbox_transactions where payment_token = ${token}`,
      )
    )[0]!;

  it('answers approved to the authorization, and keeps it beyond the longest hold Payrail allows', async () => {
    const { token, answer } = await authorize();
    expect(answer).toMatchObject({ result: true, status: 'approved', amount: 1250, currency: 'USD' });
    const row = await rowOf(token);
    expect(row).toMatchObject({ status: 'approved', confirmation: 'awaiting', amount: '1250' });
    expect(new Date(row.expires_at).getTime()).toBeGreaterThan(Date.now() + 30 * DAY_MS);
  });

  it('captures a part once, answers a repeat of it approved, and refuses another amount afterwards', async () => {
    const { token, answer } = await authorize();
    const confirmed = await signedCall('confirm_request', confirmBody(token, 1000, { gateway_token: answer.gateway_token }));
    expect(confirmed).toMatchObject({ result: true, status: 'approved', amount: 1000, currency: 'USD', gateway_token: answer.gateway_token });
    expect(await rowOf(token)).toMatchObject({ confirmation: 'confirmed', amount: '1000' });
    expect(await signedCall('confirm_request', confirmBody(token, 1000))).toMatchObject({ status: 'approved', amount: 1000 });
    expect(await signedCall('confirm_request', confirmBody(token, 1200))).toMatchObject({
      result: true,
      status: 'declined',
      details: 'the authorization was already captured with amount 1000',
    });
    expect(await signedCall('decline_request', declineBody(token))).toMatchObject({
      status: 'declined',
      details: 'the authorization was already captured; refund it instead',
    });
    const status = await adapterCall(app, 'status', statusBody(token));
    expect(status.answer).toMatchObject({ status: 'approved', amount: 1000 });
    // refunds draw on what was captured
    const refund = await adapterCall(app, 'refund', refundBody(token, 1001));
    expect(refund.answer.status).toBe('declined');
  });

  it('refuses a capture above the authorized amount, and a refund before any capture, leaving the authorization awaiting', async () => {
    const { token } = await authorize();
    expect(await signedCall('confirm_request', confirmBody(token, 1251))).toMatchObject({
      status: 'declined',
      details: 'amount 1251 exceeds the authorized amount 1250',
    });
    expect((await rowOf(token)).confirmation).toBe('awaiting');
    const refund = await adapterCall(app, 'refund', refundBody(token, 100));
    expect(refund.answer).toMatchObject({
      status: 'declined',
      details: 'the authorization is not captured: confirm it (confirm_request) or void it (decline_request)',
    });
  });

  it('voids once, answers a repeat approved, and refuses a capture afterwards', async () => {
    const { token } = await authorize();
    expect(await signedCall('decline_request', declineBody(token))).toMatchObject({ result: true, status: 'approved', amount: 1250, currency: 'USD' });
    expect(await rowOf(token)).toMatchObject({ status: 'declined', confirmation: 'voided' });
    expect(await signedCall('decline_request', declineBody(token))).toMatchObject({ status: 'approved' });
    expect(await signedCall('confirm_request', confirmBody(token, 1250))).toMatchObject({
      status: 'declined',
      details: 'the authorization was voided; nothing can be captured',
    });
    const status = await adapterCall(app, 'status', statusBody(token));
    expect(status.answer).toMatchObject({ status: 'declined' });
  });

  it('settles concurrent captures once', async () => {
    const { token } = await authorize();
    const answers = await Promise.all([600, 700, 800].map((amount) => signedCall('confirm_request', confirmBody(token, amount))));
    expect(answers.filter((answer) => answer.status === 'approved')).toHaveLength(1);
    const captured = answers.find((answer) => answer.status === 'approved')!.amount;
    expect((await rowOf(token)).amount).toBe(String(captured));
  });

  it('declines confirm_request and decline_request of a one-step payment, and of an unknown token, with the reason', async () => {
    const body = sandbox.payBody() as { payment: { token: string } };
    expect((await adapterCall(app, 'pay', body)).answer.status).toBe('approved');
    const notTwoStep = 'not an authorization: only a pay sent with params.need_confirmation is confirmed or declined';
    expect(await signedCall('confirm_request', confirmBody(body.payment.token, 100))).toMatchObject({ status: 'declined', details: notTwoStep });
    expect(await signedCall('decline_request', declineBody(body.payment.token))).toMatchObject({ status: 'declined', details: notTwoStep });
    const unknown = 'unknown transaction: payment.token is not a sandbox payment';
    expect(await signedCall('confirm_request', confirmBody('never-paid', 100))).toMatchObject({ status: 'declined', details: unknown });
    expect(await signedCall('decline_request', declineBody('never-paid'))).toMatchObject({ status: 'declined', details: unknown });
  });

  it('refuses a gateway_token or currency of another transaction', async () => {
    const { token } = await authorize();
    expect((await signedCall('confirm_request', confirmBody(token, 100, { gateway_token: 'sbx_other' }))).details).toContain('gateway_token does not belong');
    expect((await signedCall('confirm_request', confirmBody(token, 100, { currency: 'EUR' }))).details).toBe("currency EUR is not the authorization's USD");
    expect((await rowOf(token)).confirmation).toBe('awaiting');
  });

  it('refuses an unsigned or malformed request with result=false and changes nothing', async () => {
    const { token } = await authorize();
    expect(await signedCall('confirm_request', confirmBody(token, 100), 'not-a-signature')).toMatchObject({ result: false, error: 'invalid X-SIGNATURE' });
    expect((await signedCall('confirm_request', { method_name: 'confirm_request', payment: { token }, settings: settingsBlock() })).result).toBe(false);
    expect((await rowOf(token)).confirmation).toBe('awaiting');
  });

  it('refuses to capture an authorization still waiting for 3-D Secure', async () => {
    const { token } = await authorize('4000 0000 0000 3220');
    expect(await signedCall('confirm_request', confirmBody(token, 100))).toMatchObject({
      status: 'declined',
      details: 'the authorization is pending; only an approved one can be captured',
    });
  });
});
