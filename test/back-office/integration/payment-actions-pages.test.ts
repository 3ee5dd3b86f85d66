import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../../src/back-office/domain/roles.ts';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { addLiveAcquirer, csrfOf, paymentsOf } from './payments-fixtures.ts';

const engines = await testEngines();

// Refund, capture, void, cancel and Resend from a payment's page: the merchant API's flows with their rules and
// errors, each behind a confirmation page, each refused to a role that may not (a forged POST included).
describe.each(engines)('dashboard payment actions on %s', (engine) => {
  let server: ServerHarness;
  let adapter: FakeAdapter;
  let owner: DashboardClient;
  let payments: ReturnType<typeof paymentsOf>;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    adapter = await startFakeAdapter();
    owner = await signedInMember(server, { role: 'owner' });
    await addLiveAcquirer(server, owner.merchant.id, adapter);
    payments = paymentsOf(server);
  });
  afterAll(async () => {
    await adapter?.close();
    await server?.close();
  });

  const rows = <Row>(query: ReturnType<typeof sql>) => queryRows<Row>(server.running.app.payrail.database, query);
  const refundsOf = async (token: string) =>
    rows<{ amount_minor: string | number; status: string }>(
      sql`select r.amount_minor, r.status from refunds r join payments p on p.id = r.payment_id where p.token = ${token} order by r.id`,
    );
  const notificationCount = async (token: string) =>
    Number(
      (
        await rows<{ count: string | number }>(
          sql`select count(*) as count from outbox o join payments p on p.id = o.payment_id where p.token = ${token} and o.topic = 'notification'`,
        )
      )[0]?.count,
    );
  const act = (member: DashboardClient, token: string, action: string, form: Record<string, string> = {}) =>
    member.post(`/dashboard/payments/${token}/${action}`, form, `/dashboard/payments/${token}/${action}`);

  it('refunds part of a payment after the confirmation page, then shows the refund and what is left', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const confirm = await owner.get(`/dashboard/payments/${paid.token}/refund`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Refundable now: 10.00 USD');
    expect(confirm.body).toContain('value="10.00"');
    expect(confirm.body).toContain('<label for="action-amount">Amount to refund (USD)</label>');
    const refunded = await act(owner, paid.token, 'refund', { amount: '3.00', refundedSeen: '0' });
    expect(refunded.statusCode).toBe(303);
    expect(refunded.headers.location).toBe(`/dashboard/payments/${paid.token}?done=refund_approved`);
    expect(await refundsOf(paid.token)).toEqual([{ amount_minor: expect.anything(), status: 'approved' }]);
    expect(Number((await refundsOf(paid.token))[0]?.amount_minor)).toBe(300);
    const page = await owner.get(refunded.headers.location as string);
    expect(page.body).toContain('The refund was approved.');
    expect(page.body).toMatch(/<dt>Refundable now<\/dt><dd>7\.00 USD<\/dd>/);
    expect(page.body).toContain('Refund reserved');
  });

  it('shows the refund flow’s refusals on the confirmation page and changes nothing', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const cases: [Record<string, string>, number, string][] = [
      [{ amount: '10.01' }, 422, 'exceeds the refundable amount 1000'],
      [{ amount: 'ten' }, 422, 'write the amount as digits'],
      [{ amount: '1.005' }, 422, 'USD has at most 2 decimals'],
      [{ amount: '0' }, 422, 'the amount must be above zero'],
    ];
    for (const [form, status, message] of cases) {
      const refused = await act(owner, paid.token, 'refund', form);
      expect(refused.statusCode, form['amount']).toBe(status);
      expect(refused.body, form['amount']).toContain(message);
      expect(refused.body).toContain('<h1>Refund a payment</h1>');
      expect(refused.body).toContain(`value="${form['amount']}"`);
      expect(csrfOf(refused.body)).not.toBe(''); // the form can be sent again
    }
    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const notApproved = await act(owner, hosted.token, 'refund', { amount: '1.00' });
    expect(notApproved.statusCode).toBe(409);
    expect(notApproved.body).toContain('the payment is init; only approved payments can be refunded');
    expect(await refundsOf(paid.token)).toEqual([]);
    expect(await refundsOf(hosted.token)).toEqual([]);
  });

  it('refunds once when the same refund form is sent twice at the same moment', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const page = await owner.get(`/dashboard/payments/${paid.token}/refund`);
    const form = new URLSearchParams({ _csrf: csrfOf(page.body), amount: '2.00', refundedSeen: '0' }).toString();
    const send = () =>
      server.running.app.inject({
        method: 'POST',
        url: `/dashboard/payments/${paid.token}/refund`,
        headers: { cookie: owner.cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: form,
      });
    const answers = await Promise.all([send(), send()]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([303, 409]);
    expect(answers.find((answer) => answer.statusCode === 409)?.body).toContain('refunds changed since this form was shown');
    expect((await refundsOf(paid.token)).map((refund) => Number(refund.amount_minor))).toEqual([200]);
  });

  it('refunds everything with an empty amount; the payment ends refunded and its timeline says why', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey);
    expect((await act(owner, paid.token, 'refund', { amount: '' })).statusCode).toBe(303);
    const again = await act(owner, paid.token, 'refund', { amount: '' });
    expect(again.statusCode).toBe(422);
    expect(again.body).toContain('nothing is left to refund');
    await expect.poll(async () => (await payments.detail(owner.merchant.sandboxKey, paid.token)).status, { timeout: 10_000 }).toBe('refunded');
    const page = await owner.get(`/dashboard/payments/${paid.token}`);
    expect(page.body).toMatch(/status-refunded">refunded<\/span> · <span class="cause">adapter answer</);
    expect(page.body).not.toContain(`/dashboard/payments/${paid.token}/refund"`);
  });

  it('refunds a live payment in live mode through the live acquirer', async () => {
    adapter.respond('refund', reply.json(adapterAnswer.approved('gw-live-refund')));
    const paid = await payments.liveApproved(owner.merchant.productionKey);
    const live = await signedInMember(server, { role: 'support', merchant: owner.merchant, environment: 'production' });
    const refunded = await act(live, paid.token, 'refund', { amount: '10.00' });
    expect(refunded.statusCode).toBe(303);
    expect((await refundsOf(paid.token)).map((refund) => Number(refund.amount_minor))).toEqual([1000]);
    expect((await act(owner, paid.token, 'refund', { amount: '1.00' })).statusCode).toBe(404); // the owner is in test mode
  });

  it('captures part of an authorization, and refuses a capture above it or of a payment not authorized', async () => {
    const authorized = await payments.authorized(owner.merchant.sandboxKey);
    const confirm = await owner.get(`/dashboard/payments/${authorized.token}/capture`);
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('Confirm the capture');
    const above = await act(owner, authorized.token, 'capture', { amount: '10.01' });
    expect(above.statusCode).toBe(422);
    expect(above.body).toContain('must not exceed the authorized amount 1000');
    const captured = await act(owner, authorized.token, 'capture', { amount: '4.00' });
    expect(captured.statusCode).toBe(303);
    expect(captured.headers.location).toBe(`/dashboard/payments/${authorized.token}?done=captured`);
    const detail = await payments.detail(owner.merchant.sandboxKey, authorized.token);
    expect(detail).toMatchObject({ status: 'approved', captured_amount: 400 });
    const page = await owner.get(`/dashboard/payments/${authorized.token}`);
    expect(page.body).toMatch(/status-approved">approved<\/span> · <span class="cause">adapter answer</);
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const notAuthorized = await act(owner, paid.token, 'capture', { amount: '' });
    expect(notAuthorized.statusCode).toBe(409);
    expect(notAuthorized.body).toContain('payment is approved');
  });

  it('voids an authorization, and cancels a payment nobody paid but not one that was paid', async () => {
    const authorized = await payments.authorized(owner.merchant.sandboxKey);
    expect((await owner.get(`/dashboard/payments/${authorized.token}`)).body).toContain(`/dashboard/payments/${authorized.token}/void`);
    const voided = await act(owner, authorized.token, 'void');
    expect(voided.statusCode).toBe(303);
    expect(await payments.detail(owner.merchant.sandboxKey, authorized.token)).toMatchObject({
      status: 'declined',
      decline_reason: 'declined by the merchant',
    });
    expect((await owner.get(`/dashboard/payments/${authorized.token}`)).body).toMatch(
      /status-declined">declined<\/span> · <span class="cause">adapter answer<\/span> <span class="note">\(declined by the merchant\)/,
    );

    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const cancelled = await act(owner, hosted.token, 'cancel');
    expect(cancelled.statusCode).toBe(303);
    expect((await payments.detail(owner.merchant.sandboxKey, hosted.token)).status).toBe('cancelled');
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const refused = await act(owner, paid.token, 'cancel');
    expect(refused.statusCode).toBe(409);
    expect(refused.body).toContain('only a payment without card data (init) can be cancelled');
    expect((await payments.detail(owner.merchant.sandboxKey, paid.token)).status).toBe('approved');
  });

  it.each<MemberRole>(['developer', 'viewer'])('refuses every money action to a %s, even a forged POST with a valid token', async (role) => {
    const member = await signedInMember(server, { role, merchant: owner.merchant });
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const authorized = await payments.authorized(owner.merchant.sandboxKey);
    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const attempts: [string, string, Record<string, string>][] = [
      [paid.token, 'refund', { amount: '1.00' }],
      [authorized.token, 'capture', { amount: '' }],
      [authorized.token, 'void', {}],
      [hosted.token, 'cancel', {}],
    ];
    for (const [token, action, form] of attempts) {
      expect((await member.get(`/dashboard/payments/${token}/${action}`)).statusCode, action).toBe(403);
      const forged = await member.post(`/dashboard/payments/${token}/${action}`, form, '/dashboard/payments');
      expect(forged.statusCode, action).toBe(403);
    }
    expect(await refundsOf(paid.token)).toEqual([]);
    expect((await payments.detail(owner.merchant.sandboxKey, authorized.token)).status).toBe('authorized');
    expect((await payments.detail(owner.merchant.sandboxKey, hosted.token)).status).toBe('init');
  });

  it('resends the final notification for a role that may, shows why it cannot for an open payment, refuses a viewer', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey);
    const before = await notificationCount(paid.token);
    const developer = await signedInMember(server, { role: 'developer', merchant: owner.merchant });
    const resent = await developer.post(`/dashboard/payments/${paid.token}/notifications/resend`, {}, `/dashboard/payments/${paid.token}`);
    expect(resent.statusCode).toBe(303);
    expect(resent.headers.location).toBe(`/dashboard/payments/${paid.token}?done=resent`);
    expect(await notificationCount(paid.token)).toBe(before + 1);
    const viewer = await signedInMember(server, { role: 'viewer', merchant: owner.merchant });
    const forged = await viewer.post(`/dashboard/payments/${paid.token}/notifications/resend`, {}, `/dashboard/payments/${paid.token}`);
    expect(forged.statusCode).toBe(403);
    expect(await notificationCount(paid.token)).toBe(before + 1);
    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const open = await owner.post(`/dashboard/payments/${hosted.token}/notifications/resend`, {}, `/dashboard/payments/${hosted.token}`);
    expect(open.statusCode).toBe(409);
    expect(open.body).toContain('payment is init; only a final status is notified');
    expect(open.body).toContain('<h2 id="status-changes">');
    expect(csrfOf(open.body)).not.toBe('');
  });
});
