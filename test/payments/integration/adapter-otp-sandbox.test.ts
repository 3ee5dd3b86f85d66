import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../src/platform/lib/sandbox-test-cards.ts';
import { testEngines } from '../../support/databases.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// Issue 10 end to end through the sandbox acquirer over real HTTPS: a Host-to-Host card whose provider asks for a
// secure code (confirm_secure_code, resend_otp) or for more data (next_payment_step), answered by the merchant.
describe.each(engines)('Host-to-Host secure code and next step through the sandbox on %s', (engine) => {
  let server: ServerHarness;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    merchant = await server.createMerchant();
  });
  afterAll(async () => server?.close());

  const pay = (pan: string) =>
    server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Order #88',
        amount: 2500,
        currency: 'EUR',
        callbackUrl: 'https://merchant.example/callback',
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
  const post = (token: string, action: string, body: unknown) => server.call('POST', `/api/v1/payments/${token}/${action}`, { key: merchant.sandboxKey, body });
  const detail = async (token: string) => (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.sandboxKey })).body.payment;
  const database = () => server.running.app.payrail.database;
  // The resend interval is 30 s: the test moves the step's clock back instead of waiting.
  const backdateStep = (token: string) =>
    database().db.execute(
      sql`update payments set pending_step = pending_step || jsonb_build_object('askedAt', '2000-01-01T00:00:00.000Z', 'lastResentAt', '2000-01-01T00:00:00.000Z') where token = ${token}`,
    );

  it('asks for the code in the create response, takes a wrong one, approves with the right one, and logs neither', async () => {
    const created = await pay(SANDBOX_TEST_CARD_NUMBERS.secure_code_approved);
    expect(created.status).toBe(200);
    expect(created.body.payment.status).toBe('pending');
    expect(created.body.pendingStep).toMatchObject({
      type: 'secure_code',
      secure_code: { length: 6, kind: 'sms', attempts_left: 3, resend_allowed: true, resends_left: 3 },
    });
    const token = created.body.token as string;

    const wrong = await post(token, 'secure_code', { code: '975319' });
    expect(wrong.status).toBe(200);
    expect(wrong.body.payment).toMatchObject({ status: 'pending', pending_step: { type: 'secure_code', secure_code: { attempts_left: 2 } } });

    const right = await post(token, 'secure_code', { code: '123456' });
    expect(right.status).toBe(200);
    expect(right.body.payment).toMatchObject({ status: 'approved', pending_step: null });
    const logs = right.body.payment.interaction_logs as { kind: string; entry: unknown }[];
    expect(logs.filter((log) => log.kind === 'confirm_secure_code').length).toBeGreaterThanOrEqual(2);
    // The sandbox names its test code in its own message; the codes sent never show.
    const logText = JSON.stringify(logs).replaceAll('(sandbox: 123456)', '');
    expect(logText).not.toContain('123456');
    expect(logText).not.toContain('975319');
    expect(logText).toContain('"code":"[removed]"');
    const [stored] = await queryRows<{ pending_step: unknown }>(database(), sql`select pending_step from payments where token = ${token}`);
    expect(stored!.pending_step).toBeNull();
    // The step is over: another code is refused and nothing reaches the adapter.
    const late = await post(token, 'secure_code', { code: '123456' });
    expect(late.status).toBe(409);
    expect(late.body.errors[0].code).toBe('invalid_state');
  });

  it('refuses a code of the wrong form without counting it, and declines after three wrong codes', async () => {
    const token = (await pay(SANDBOX_TEST_CARD_NUMBERS.secure_code_approved)).body.token as string;
    const malformed = await post(token, 'secure_code', { code: '12' });
    expect(malformed.status).toBe(422);
    expect(malformed.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'code' });
    expect((await detail(token)).pending_step.secure_code.attempts_left).toBe(3);

    expect((await post(token, 'secure_code', { code: '111111' })).body.payment.status).toBe('pending');
    expect((await post(token, 'secure_code', { code: '222222' })).body.payment.status).toBe('pending');
    const third = await post(token, 'secure_code', { code: '333333' });
    expect(third.status).toBe(200);
    expect(third.body.payment).toMatchObject({ status: 'declined', pending_step: null });
    expect(third.body.payment.decline_reason).toContain('Wrong secure code entered 3 times');
  });

  it('sends the code again at most three times, thirty seconds apart', async () => {
    const token = (await pay(SANDBOX_TEST_CARD_NUMBERS.secure_code_approved)).body.token as string;
    const tooSoon = await post(token, 'resend_otp', {});
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.errors[0].code).toBe('otp_resend_too_soon');
    for (let resend = 1; resend <= 3; resend += 1) {
      await backdateStep(token);
      const resent = await post(token, 'resend_otp', {});
      expect(resent.status).toBe(200);
      expect(resent.body.payment).toMatchObject({ status: 'pending', pending_step: { secure_code: { resends_left: 3 - resend } } });
      if (resend < 3) expect(resent.body.payment.pending_step.secure_code.resend_available_in_s).toBeGreaterThan(25);
    }
    await backdateStep(token);
    const limit = await post(token, 'resend_otp', {});
    expect(limit.status).toBe(429);
    expect(limit.body.errors[0].code).toBe('otp_resend_limit');
    const kinds = ((await detail(token)).interaction_logs as { kind: string }[]).map((log) => log.kind);
    expect(kinds.filter((kind) => kind === 'resend_otp').length).toBeGreaterThanOrEqual(3);
    // The code still works after the resends.
    expect((await post(token, 'secure_code', { code: '123456' })).body.payment.status).toBe('approved');
  });

  it('asks for a phone number, checks it against the step before sending, and approves', async () => {
    const created = await pay(SANDBOX_TEST_CARD_NUMBERS.next_step_approved);
    expect(created.body.payment.status).toBe('pending');
    expect(created.body.pendingStep).toMatchObject({
      type: 'next_step',
      next_step: { fields: [{ name: 'phone', type: 'tel', max_length: 16, required: true }] },
    });
    const token = created.body.token as string;
    const invalid = await post(token, 'next_step', { fields: { phone: 'call me' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0]).toMatchObject({ code: 'invalid_field', field: 'fields.phone' });
    const unknown = await post(token, 'next_step', { fields: { phone: '+4915112345678', email: 'ada@example.com' } });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors.map((error: { code: string; field: string }) => `${error.code} ${error.field}`)).toEqual(['unknown_field fields.email']);
    const missing = await post(token, 'next_step', { fields: {} });
    expect(missing.body.errors[0]).toMatchObject({ code: 'missing_field', field: 'fields.phone' });
    expect(
      (
        await queryRows<{ count: number }>(
          database(),
          sql`select count(*)::int as count from payment_logs l join payments p on p.id = l.payment_id where p.token = ${token} and l.kind = 'next_payment_step'`,
        )
      )[0]!.count,
    ).toBe(0);

    const done = await post(token, 'next_step', { fields: { phone: '+4915112345678' } });
    expect(done.status).toBe(200);
    expect(done.body.payment).toMatchObject({ status: 'approved', pending_step: null });
    expect((done.body.payment.interaction_logs as { kind: string }[]).some((log) => log.kind === 'next_payment_step')).toBe(true);
  });

  it('declines the next step card for a phone number the provider does not link to it', async () => {
    const token = (await pay(SANDBOX_TEST_CARD_NUMBERS.next_step_approved)).body.token as string;
    const declined = await post(token, 'next_step', { fields: { phone: '+4915110000000' } });
    expect(declined.body.payment.status).toBe('declined');
    expect(declined.body.payment.decline_reason).toContain('Phone number is not linked to the card');
    expect((await post(token, 'next_step', { fields: { phone: '+4915112345678' } })).status).toBe(409);
  });
});
