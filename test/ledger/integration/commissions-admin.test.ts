import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AdminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runCommissionCommand } from '../../../src/cli/commission-commands.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

const NONE = { pay: null, payout: null, refund: null };

describe.each(engines)('commission administration on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const admin = (method: 'GET' | 'PUT', url: string, payload?: unknown, key = harness.adminKey) =>
    harness.app.inject({
      method,
      url: `/api/admin/v1${url}`,
      headers: { authorization: `Bearer ${key}` },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  const commissionsOf = async (merchantId: number) => (await admin('GET', `/merchants/${merchantId}/commissions`)).json().commissions;

  it('shows no terms for a new merchant: everything is free', async () => {
    const merchant = await harness.createMerchant();
    const response = await admin('GET', `/merchants/${merchant.id}/commissions`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true, merchantId: merchant.id, commissions: NONE });
  });

  it('sets terms per operation, keeps the operations left out, and removes terms set to null', async () => {
    const merchant = await harness.createMerchant();
    const set = await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 2.5, fixed: 30 }, refund: { percent: 0, fixed: 15 } });
    expect(set.statusCode).toBe(200);
    expect(set.json()).toEqual({
      success: true,
      merchantId: merchant.id,
      commissions: { pay: { percent: 2.5, fixed: 30 }, payout: null, refund: { percent: 0, fixed: 15 } },
    });
    const changed = await admin('PUT', `/merchants/${merchant.id}/commissions`, { payout: { percent: 1.15, fixed: 0 }, refund: null });
    expect(changed.json().commissions).toEqual({ pay: { percent: 2.5, fixed: 30 }, payout: { percent: 1.15, fixed: 0 }, refund: null });
    expect(await commissionsOf(merchant.id)).toEqual({ pay: { percent: 2.5, fixed: 30 }, payout: { percent: 1.15, fixed: 0 }, refund: null });
    const unchanged = await admin('PUT', `/merchants/${merchant.id}/commissions`, {});
    expect(unchanged.json().commissions).toEqual({ pay: { percent: 2.5, fixed: 30 }, payout: { percent: 1.15, fixed: 0 }, refund: null });
    const rows = await queryRows<{ operation: string; percent_bp: number; fixed_minor: string }>(
      harness.database,
      sql`select operation, percent_bp, fixed_minor::text from commissions where merchant_id = ${merchant.id} order by operation`,
    );
    expect(rows).toEqual([
      { operation: 'pay', percent_bp: 250, fixed_minor: '30' },
      { operation: 'payout', percent_bp: 115, fixed_minor: '0' },
    ]);
  });

  it('accepts the bounds: 0 to 100 % and a fixed part up to 10^12 minor units', async () => {
    const merchant = await harness.createMerchant();
    const response = await admin('PUT', `/merchants/${merchant.id}/commissions`, {
      pay: { percent: 100, fixed: 1_000_000_000_000 },
      payout: { percent: 0.01, fixed: 0 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().commissions).toMatchObject({ pay: { percent: 100, fixed: 1_000_000_000_000 }, payout: { percent: 0.01, fixed: 0 } });
  });

  it.each([
    ['three decimals', { pay: { percent: 2.345, fixed: 0 } }, ['pay.percent']],
    ['above 100 %', { payout: { percent: 100.5, fixed: 0 } }, ['payout.percent']],
    ['a negative percentage', { refund: { percent: -1, fixed: 0 } }, ['refund.percent']],
    ['a fractional fixed part', { pay: { percent: 1, fixed: 1.5 } }, ['pay.fixed']],
    ['a negative fixed part', { pay: { percent: 1, fixed: -1 } }, ['pay.fixed']],
    ['a fixed part above 10^12', { pay: { percent: 1, fixed: 1_000_000_000_001 } }, ['pay.fixed']],
    ['a missing part', { pay: { percent: 1 } }, ['pay.fixed']],
    ['text instead of a number', { pay: { percent: 'lots', fixed: 0 } }, ['pay.percent']],
    ['two bad operations at once', { pay: { percent: 1.001, fixed: 0 }, refund: { percent: 2.345, fixed: 5 } }, ['pay.percent', 'refund.percent']],
    ['two bad fields at once', { pay: { percent: 101, fixed: -5 } }, ['pay.percent', 'pay.fixed']],
  ])('answers 422 naming the field for %s, and changes nothing', async (_label, body, fields) => {
    const merchant = await harness.createMerchant();
    await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 3, fixed: 10 } });
    const response = await admin('PUT', `/merchants/${merchant.id}/commissions`, body);
    expect(response.statusCode).toBe(422);
    const answer = response.json();
    expect(answer).toMatchObject({ success: false, result: 1, status: 422 });
    const named = answer.errors.map((error: { field: string }) => error.field);
    for (const field of fields) expect(named).toContain(field);
    expect(await commissionsOf(merchant.id)).toEqual({ pay: { percent: 3, fixed: 10 }, payout: null, refund: null });
  });

  it.each([
    ['an unknown operation', { deposit: { percent: 1, fixed: 0 } }, 'deposit'],
    ['an unknown field in the terms', { pay: { percent: 1, fixed: 0, cap: 5 } }, 'pay.cap'],
  ])('refuses %s with 422 unknown_field', async (_label, body, field) => {
    const merchant = await harness.createMerchant();
    const response = await admin('PUT', `/merchants/${merchant.id}/commissions`, body);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toContainEqual(expect.objectContaining({ code: 'unknown_field', field }));
  });

  it('answers 404 for a merchant that does not exist, on both routes', async () => {
    for (const response of [await admin('GET', '/merchants/987654/commissions'), await admin('PUT', '/merchants/987654/commissions', { pay: null })]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().errors).toEqual([{ code: 'not_found', message: 'merchant 987654 not found' }]);
    }
  });

  it('answers 422 for a merchant id that is not a positive integer', async () => {
    expect((await admin('GET', '/merchants/0/commissions')).statusCode).toBe(422);
    expect((await admin('GET', '/merchants/abc/commissions')).statusCode).toBe(422);
  });

  it('requires the admin key: a merchant key or none is refused with 401', async () => {
    const merchant = await harness.createMerchant();
    expect((await admin('GET', `/merchants/${merchant.id}/commissions`, undefined, merchant.sandboxKey)).statusCode).toBe(401);
    expect((await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 0, fixed: 0 } }, merchant.productionKey)).statusCode).toBe(401);
    const anonymous = await harness.app.inject({ method: 'GET', url: `/api/admin/v1/merchants/${merchant.id}/commissions` });
    expect(anonymous.statusCode).toBe(401);
  });

  describe('the CLI commands', () => {
    // The CLI's admin client, answering through the app in process instead of over HTTPS.
    const client: AdminClient = {
      async call(method, path, body) {
        const response = await admin(method as 'GET' | 'PUT', path, body);
        if (response.statusCode !== 200) throw new CliError(`${method} ${path} failed with HTTP ${response.statusCode}: ${response.body}`);
        return response.json();
      },
      close: async () => {},
    };
    const run = async (action: string, options: Record<string, string | boolean>) => {
      const lines: string[] = [];
      await runCommissionCommand(client, action, { clear: false, json: false, ...options }, (line) => lines.push(line));
      return lines;
    };

    it('sets, shows and clears terms: merchant set-commission and merchant commissions', async () => {
      const merchant = await harness.createMerchant();
      const id = String(merchant.id);
      expect(await run('set-commission', { id, operation: 'pay', percent: '2.5', fixed: '30' })).toEqual([
        `Commissions of merchant #${id}:`,
        '  pay    2.5 % + 30 minor units',
        '  payout none',
        '  refund none',
      ]);
      await run('set-commission', { id, operation: 'refund', percent: '0', fixed: '15' });
      expect(JSON.parse((await run('commissions', { id, json: true }))[0]!)).toEqual({
        merchantId: merchant.id,
        commissions: { pay: { percent: 2.5, fixed: 30 }, payout: null, refund: { percent: 0, fixed: 15 } },
      });
      await run('set-commission', { id, operation: 'pay', clear: true });
      expect(await commissionsOf(merchant.id)).toEqual({ pay: null, payout: null, refund: { percent: 0, fixed: 15 } });
    });

    it.each([
      ['no merchant id', 'commissions', {}, /--id/],
      ['no operation', 'set-commission', { id: '1', percent: '1', fixed: '0' }, /--operation pay\|payout\|refund/],
      ['an unknown operation', 'set-commission', { id: '1', operation: 'deposit', percent: '1', fixed: '0' }, /--operation/],
      ['a missing fixed part', 'set-commission', { id: '1', operation: 'pay', percent: '1' }, /--percent P and --fixed F/],
      ['--clear with terms', 'set-commission', { id: '1', operation: 'pay', percent: '1', fixed: '0', clear: true }, /--clear alone/],
      ['a percentage that is not a number', 'set-commission', { id: '1', operation: 'pay', percent: '2,5', fixed: '0' }, /--percent must be/],
    ])('refuses %s before calling the server', async (_label, action, options, message) => {
      await expect(run(action, options)).rejects.toThrow(message);
    });

    it("passes the server's field errors on", async () => {
      const merchant = await harness.createMerchant();
      await expect(run('set-commission', { id: String(merchant.id), operation: 'payout', percent: '2.555', fixed: '0' })).rejects.toThrow(
        /payout\.percent|two decimals/,
      );
      await expect(run('commissions', { id: '987654' })).rejects.toThrow(/HTTP 404/);
    });
  });

  describe('payments copy the terms when they are created', () => {
    let merchant: TestMerchant;
    const bankAccountPayment = {
      ...validPaymentA,
      amount: 1999,
      bank_account: { bank_name: 'Sber', requisite_type: 'sbp' },
      customer: { email: 'payer@example.com' },
    };
    const create = (payload: object) => harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload });
    const detail = async (token: string) =>
      (await harness.merchantRequest(merchant.sandboxKey, { method: 'GET', url: `/api/v1/payments/${token}` })).json().payment;

    beforeAll(async () => {
      merchant = await harness.createMerchant();
    });

    it('shows commission in the variant C create response and commission_data on GET after 2.5 % + 30', async () => {
      const before = await create(bankAccountPayment);
      await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 2.5, fixed: 30 } });
      const created = await create(bankAccountPayment);
      expect(created.statusCode).toBe(200);
      // 2.5 % of 1999 = 49.975 → 50, plus 30
      expect(created.json().payment).toMatchObject({ amount: 1999, currency: 'USD', status: 'init', commission: 80 });
      expect((await detail(created.json().token)).commission_data).toEqual({ commission_value: 2.5, commission_fee: 30, commission_amount: 80 });
      // created before the terms: free, and stays free
      expect(before.json().payment.commission).toBe(0);
      expect((await detail(before.json().token)).commission_data).toEqual({ commission_value: 0, commission_fee: 0, commission_amount: 0 });
    });

    it('keeps the terms a payment was created with when the merchant terms change or go', async () => {
      await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 1, fixed: 5 } });
      const created = await create({ ...bankAccountPayment, amount: 10_000 });
      expect(created.json().payment.commission).toBe(105);
      await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 9, fixed: 99 } });
      expect((await detail(created.json().token)).commission_data).toEqual({ commission_value: 1, commission_fee: 5, commission_amount: 105 });
      await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: null });
      expect((await detail(created.json().token)).commission_data.commission_amount).toBe(105);
      expect((await create(bankAccountPayment)).json().payment.commission).toBe(0);
    });

    it("applies one merchant's terms to that merchant alone", async () => {
      await admin('PUT', `/merchants/${merchant.id}/commissions`, { pay: { percent: 50, fixed: 0 } });
      const other = await harness.createMerchant();
      const created = await harness.merchantRequest(other.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: bankAccountPayment });
      expect(created.json().payment.commission).toBe(0);
      expect(await commissionsOf(other.id)).toEqual(NONE);
    });
  });
});
