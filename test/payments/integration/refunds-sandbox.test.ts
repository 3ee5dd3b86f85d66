import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows } from '../../support/sql.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterCall, settingsBlock, startSandboxFixture, type SandboxFixture } from '../../sandbox-adapter/integration/sandbox-support.ts';

const engines = await testEngines();

// The sandbox acquirer's side of Payrail's refund request (adapter-contract.ts RefundRequest): refund.amount and
// refund.token, and a repeat of a refund token answered from the first refund, never refunded twice.
describe.each(engines)('sandbox adapter: refunds with a refund token on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
  });
  afterAll(async () => sandbox?.close());

  const approvedPayment = async (amount = 1000) => {
    const body = sandbox.payBody({ pan: '4242 4242 4242 4242', amount });
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.answer.status).toBe('approved');
    return { token: (body['payment'] as { token: string }).token, gatewayToken: pay.answer.gateway_token as string };
  };
  const refundRequest = (payment: { token: string; gatewayToken: string }, refund: { amount?: number; token: string }) => ({
    method_name: 'refund',
    payment: { token: payment.token, gateway_token: payment.gatewayToken, currency: 'USD' },
    refund,
    settings: settingsBlock(),
  });
  const refundedOf = async (paymentToken: string) => {
    const rows = await queryRows<{ refunded: string }>(
      sandbox.database,
      sql`select refunded_minor::text as refunded from sandbox_transactions where payment_token = ${paymentToken}`,
    );
    return Number(rows[0]?.refunded);
  };
  const newRefundToken = () => randomBytes(16).toString('hex');

  it("reads Payrail's refund.amount and answers a repeat of the refund token with the first refund", async () => {
    const payment = await approvedPayment();
    const refundToken = newRefundToken();
    const first = await adapterCall(app, 'refund', refundRequest(payment, { amount: 400, token: refundToken }));
    expect(first.answer).toMatchObject({ result: true, status: 'approved', amount: 400, currency: 'USD' });
    const again = await adapterCall(app, 'refund', refundRequest(payment, { amount: 400, token: refundToken }));
    expect(again.answer).toMatchObject({ result: true, status: 'approved', amount: 400, gateway_token: first.answer.gateway_token });
    expect(await refundedOf(payment.token)).toBe(400);
  });

  it('refunds once when the same refund token arrives many times at once', async () => {
    const payment = await approvedPayment();
    const refundToken = newRefundToken();
    const answers = await Promise.all(Array.from({ length: 8 }, () => adapterCall(app, 'refund', refundRequest(payment, { amount: 700, token: refundToken }))));
    const gatewayTokens = new Set(answers.map((call) => call.answer.gateway_token));
    expect(answers.every((call) => call.answer.status === 'approved')).toBe(true);
    expect(gatewayTokens.size).toBe(1);
    expect(await refundedOf(payment.token)).toBe(700);
  });

  it('repeats a decline, and refuses a refund token reused for another amount or payment', async () => {
    const payment = await approvedPayment(500);
    const tooMuch = newRefundToken();
    const declined = await adapterCall(app, 'refund', refundRequest(payment, { amount: 600, token: tooMuch }));
    expect(declined.answer).toMatchObject({ result: true, status: 'declined', details: 'refund amount 600 exceeds the refundable amount 500' });
    expect((await adapterCall(app, 'refund', refundRequest(payment, { amount: 600, token: tooMuch }))).answer).toMatchObject({
      status: 'declined',
      gateway_token: declined.answer.gateway_token,
    });

    const refundToken = newRefundToken();
    expect((await adapterCall(app, 'refund', refundRequest(payment, { amount: 200, token: refundToken }))).answer.status).toBe('approved');
    const otherAmount = await adapterCall(app, 'refund', refundRequest(payment, { amount: 300, token: refundToken }));
    expect(otherAmount.answer).toMatchObject({ result: false, error: expect.stringContaining('refund.token') });
    const otherPayment = await approvedPayment();
    const elsewhere = await adapterCall(app, 'refund', refundRequest(otherPayment, { amount: 200, token: refundToken }));
    expect(elsewhere.answer).toMatchObject({ result: false, error: expect.stringContaining('another payment') });
    expect(await refundedOf(payment.token)).toBe(200);
    expect(await refundedOf(otherPayment.token)).toBe(0);
  });
});
