import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterCall, refundBody, settingsBlock, startSandboxFixture, statusBody, uniqueToken, type SandboxFixture } from './sandbox-support.ts';

const engines = await testEngines();

function payoutBody(card: string | null, overrides: { token?: string; sandbox?: boolean; inParamsPan?: boolean } = {}) {
  const cardFields = card === null ? {} : overrides.inParamsPan === true ? { pan: card } : { card: { pan: card } };
  return {
    method_name: 'payout',
    params: { amount: 2500, currency: 'USD', customer: { email: 'payee@example.com', ip: '203.0.113.8' }, ...cardFields },
    payment: { token: overrides.token ?? uniqueToken('payout') },
    settings: settingsBlock(overrides.sandbox === undefined ? {} : { sandbox: overrides.sandbox }),
  };
}

describe.each(engines)('sandbox adapter: payouts on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
  });
  afterAll(async () => sandbox?.close());

  it.each([
    { card: '5555 5555 5555 4444', status: 'approved', details: undefined },
    { card: '5105105105105100', status: 'declined', details: 'Payout declined by issuer' },
  ])('answers payout card $card with $status at once, and /status agrees', async ({ card, status, details }) => {
    const body = payoutBody(card);
    const payout = await adapterCall(app, 'payout', body);
    expect(payout.response.statusCode).toBe(200);
    expect(payout.answer).toMatchObject({ result: true, status, amount: 2500, currency: 'USD' });
    expect(payout.answer.gateway_token).toMatch(/^sbx_/);
    expect(payout.answer.details).toBe(details);
    expect(payout.answer.logs[0]).toMatchObject({ kind: 'payout', status: 200 });
    const checked = await adapterCall(app, 'status', statusBody(body.payment.token));
    expect(checked.answer).toMatchObject({ result: true, status, amount: 2500, currency: 'USD' });
  });

  it('takes the payout card from params.pan as well', async () => {
    const payout = await adapterCall(app, 'payout', payoutBody('5555555555554444', { inParamsPan: true }));
    expect(payout.answer).toMatchObject({ result: true, status: 'approved' });
  });

  it.each([
    { case: 'a pay card', card: '4242 4242 4242 4242' },
    { case: 'an unknown card', card: '4111 1111 1111 1111' },
    { case: 'no card', card: null },
  ])('declines a payout to $case with a reason pointing at the payout test cards', async ({ card }) => {
    const payout = await adapterCall(app, 'payout', payoutBody(card));
    expect(payout.answer).toMatchObject({ result: true, status: 'declined' });
    expect(payout.answer.details).toBe('not a sandbox test payout card; see GET /api/v1/sandbox/test-cards');
  });

  it('declines a payout test card in production', async () => {
    const payout = await adapterCall(app, 'payout', payoutBody('5555 5555 5555 4444', { sandbox: false }));
    expect(payout.answer).toMatchObject({ result: true, status: 'declined', details: 'sandbox card used in production' });
  });

  it('answers result false for a payout without an amount', async () => {
    const body = payoutBody('5555 5555 5555 4444');
    const { amount: _amount, ...paramsWithoutAmount } = body.params;
    const payout = await adapterCall(app, 'payout', { ...body, params: paramsWithoutAmount });
    expect(payout.answer).toMatchObject({ result: false, error: 'payout needs params.amount (or payment.gateway_amount)' });
  });

  it('answers result false for a payout without payment.token', async () => {
    const body = payoutBody('5555 5555 5555 4444');
    const payout = await adapterCall(app, 'payout', { ...body, payment: {} });
    expect(payout.response.statusCode).toBe(200);
    expect(payout.answer.result).toBe(false);
    expect(payout.answer.error).toContain('token');
  });
});

describe.each(engines)('sandbox adapter: refunds on %s', (engine) => {
  let sandbox: SandboxFixture;
  let app: FastifyInstance;
  const payBody: SandboxFixture['payBody'] = (options) => sandbox.payBody(options);
  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
    app = sandbox.app;
  });
  afterAll(async () => sandbox?.close());

  async function approvedPayment(amount = 1000): Promise<string> {
    const body = payBody({ pan: '4242 4242 4242 4242', amount });
    const pay = await adapterCall(app, 'pay', body);
    expect(pay.answer.status).toBe('approved');
    return (body['payment'] as { token: string }).token;
  }

  it('refunds the whole approved amount when no amount is given', async () => {
    const token = await approvedPayment(1000);
    const refund = await adapterCall(app, 'refund', refundBody(token));
    expect(refund.response.statusCode).toBe(200);
    expect(refund.answer).toMatchObject({ result: true, status: 'approved', amount: 1000, currency: 'USD' });
    expect(refund.answer.gateway_token).toMatch(/^sbx_rf_/);
    expect(refund.answer.logs[0]).toMatchObject({ kind: 'refund', status: 200 });
  });

  it('refunds in parts up to the approved amount, then declines', async () => {
    const token = await approvedPayment(1000);
    expect((await adapterCall(app, 'refund', refundBody(token, 400))).answer).toMatchObject({ status: 'approved', amount: 400 });
    const tooMuch = await adapterCall(app, 'refund', refundBody(token, 601));
    expect(tooMuch.answer).toMatchObject({ result: true, status: 'declined', details: 'refund amount 601 exceeds the refundable amount 600' });
    expect((await adapterCall(app, 'refund', refundBody(token))).answer).toMatchObject({ status: 'approved', amount: 600 });
    const again = await adapterCall(app, 'refund', refundBody(token, 1));
    expect(again.answer).toMatchObject({ status: 'declined', details: 'the payment is already fully refunded' });
  });

  it.each([
    { case: 'a declined payment', setup: async (app: FastifyInstance) => tokenOf(app, payBody({ pan: '4000 0000 0000 0002' })) },
    { case: 'a payment waiting for 3-D Secure', setup: async (app: FastifyInstance) => tokenOf(app, payBody({ pan: '4000 0000 0000 3220' })) },
    { case: 'a payout', setup: async (app: FastifyInstance) => tokenOf(app, payoutBody('5555 5555 5555 4444')) },
    { case: 'an unknown token', setup: async () => uniqueToken('missing') },
  ])('declines a refund of $case with a reason', async ({ setup }) => {
    const token = await setup(app);
    const refund = await adapterCall(app, 'refund', refundBody(token));
    expect(refund.response.statusCode).toBe(200);
    expect(refund.answer).toMatchObject({ result: true, status: 'declined' });
    expect(refund.answer.details).toEqual(expect.any(String));
  });

  it('answers result false for a refund without settings', async () => {
    const token = await approvedPayment();
    const refund = await adapterCall(app, 'refund', { method_name: 'refund', payment: { token } });
    expect(refund.answer.result).toBe(false);
    expect(refund.answer.error).toContain('settings');
  });

  it('never refunds more than the approved amount, even when refunds race', async () => {
    const token = await approvedPayment(1000);
    const refunds = await Promise.all(Array.from({ length: 6 }, () => adapterCall(app, 'refund', refundBody(token, 300))));
    const approved = refunds.filter((refund) => refund.answer.status === 'approved');
    expect(approved).toHaveLength(3);
    expect(refunds.every((refund) => refund.answer.result === true)).toBe(true);
  });
});

async function tokenOf(app: FastifyInstance, body: Record<string, unknown>): Promise<string> {
  const method = body['method_name'] as 'pay' | 'payout';
  await adapterCall(app, method, body);
  return (body['payment'] as { token: string }).token;
}
