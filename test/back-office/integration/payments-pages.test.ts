import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MemberRole } from '../../../src/back-office/domain/roles.ts';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';
import { addLiveAcquirer, paymentsOf } from './payments-fixtures.ts';

const engines = await testEngines();
const ROLES: readonly MemberRole[] = ['owner', 'developer', 'support', 'viewer'];

// The Payments list, its CSV export and each payment's timeline, in the viewer's merchant and mode only.
describe.each(engines)('dashboard payments on %s', (engine) => {
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
  const nextHref = (body: string) => /<a href="([^"]+)" rel="next">/.exec(body)?.[1]?.replaceAll('&amp;', '&');
  const tokensIn = (body: string) => [...body.matchAll(/<a href="\/dashboard\/payments\/([0-9a-f]{32})">/g)].map((match) => match[1]);

  it('lists the payments of this mode for every role, and a live payment only in live mode', async () => {
    const sandbox = await payments.hosted(owner.merchant.sandboxKey, { orderNumber: 'list-sandbox-1' });
    const live = await payments.liveApproved(owner.merchant.productionKey, { orderNumber: 'list-live-1' });
    for (const role of ROLES) {
      const member = await signedInMember(server, { role, merchant: owner.merchant });
      const testMode = await member.get('/dashboard/payments');
      expect(testMode.statusCode, `${role} in test mode`).toBe(200);
      expect(testMode.body).toContain(sandbox.token);
      expect(testMode.body).not.toContain(live.token);
      expect(testMode.body.match(/<h1>/g)).toHaveLength(1);
      expect(testMode.body).toContain('<label for="filter-customerEmail">');
      await member.setEnvironment('production');
      const liveMode = await member.get('/dashboard/payments');
      expect(liveMode.statusCode, `${role} in live mode`).toBe(200);
      expect(liveMode.body).toContain(live.token);
      expect(liveMode.body).not.toContain(sandbox.token);
      expect((await member.get(`/dashboard/payments/${sandbox.token}`)).statusCode).toBe(404);
      expect((await member.get(`/dashboard/payments/${live.token}`)).statusCode).toBe(200);
    }
  });

  it('shows the empty state to a merchant without payments', async () => {
    const newcomer = await signedInMember(server);
    const page = await newcomer.get('/dashboard/payments');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No payments in this mode yet');
  });

  it('never shows another merchant’s payment: not in the list, 404 for its page and its actions', async () => {
    const theirs = await payments.approved(owner.merchant.sandboxKey, { orderNumber: 'not-yours' });
    const other = await signedInMember(server, { role: 'owner' });
    const list = await other.get('/dashboard/payments?orderNumber=not-yours');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain(theirs.token);
    expect(list.body).toContain('No payment matches these filters');
    for (const path of ['', '/refund', '/capture', '/void', '/cancel']) {
      expect((await other.get(`/dashboard/payments/${theirs.token}${path}`)).statusCode, path).toBe(404);
    }
    for (const path of ['/refund', '/cancel', '/notifications/resend']) {
      expect((await other.post(`/dashboard/payments/${theirs.token}${path}`, { amount: '1.00' }, '/dashboard/payments')).statusCode, path).toBe(404);
    }
    expect((await payments.detail(owner.merchant.sandboxKey, theirs.token)).refunded_amount).toBe(0);
  });

  it('walks every page by the cursor of the next-page link, as the API pages', async () => {
    const member = await signedInMember(server);
    const created: string[] = [];
    for (let index = 0; index < 23; index += 1) created.push((await payments.hosted(member.merchant.sandboxKey, { orderNumber: `page-${index}` })).token);
    const first = await member.get('/dashboard/payments');
    expect(tokensIn(first.body)).toEqual([...created].reverse().slice(0, 20));
    expect(first.body).toContain('23 matching');
    const next = nextHref(first.body);
    expect(next).toMatch(/^\/dashboard\/payments\?cursor=/);
    const second = await member.get(next!);
    expect(second.statusCode).toBe(200);
    expect(tokensIn(second.body)).toEqual([...created].reverse().slice(20));
    expect(nextHref(second.body)).toBeUndefined();
    expect(second.body).toContain('First page');
    const wider = await member.get('/dashboard/payments?perPage=50');
    expect(tokensIn(wider.body)).toHaveLength(23);
    const filtered = await member.get('/dashboard/payments?perPage=20&operationType=pays');
    expect(nextHref(filtered.body)).toContain('operationType=pays');
  });

  it('filters by day, kind, order number and status, and searches by token, e-mail and card', async () => {
    const member = await signedInMember(server);
    const key = member.merchant.sandboxKey;
    const card = await payments.approved(key, { orderNumber: 'search-card' }, 'Grace.Hopper@Example.com');
    const hosted = await payments.hosted(key, { orderNumber: 'search-hosted' });
    const authorized = await payments.authorized(key, { orderNumber: 'search-authorized' });
    const today = new Date().toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const cases: [string, string[]][] = [
      [`dateFrom=${today}&dateTo=${today}`, [authorized.token, hosted.token, card.token]],
      [`dateFrom=${tomorrow}`, []],
      ['operationType=payouts', []],
      ['operationType=pays', [authorized.token, hosted.token, card.token]],
      ['orderNumber=search-hosted', [hosted.token]],
      ['status=authorized', [authorized.token]],
      [`token=${card.token.toUpperCase()}`, [card.token]],
      ['customerEmail=grace.hopper%40example.com', [card.token]],
      ['cardLast4=4242', [authorized.token, card.token]],
      ['cardLast4=1111', []],
      ['cardLast4=4242&status=approved', [card.token]],
    ];
    for (const [query, expected] of cases) {
      const page = await member.get(`/dashboard/payments?${query}`);
      expect(page.statusCode, query).toBe(200);
      expect(tokensIn(page.body), query).toEqual(expected);
      if (expected.length === 0) expect(page.body, query).toContain('No payment matches these filters');
    }
    const kept = await member.get('/dashboard/payments?customerEmail=grace.hopper%40example.com&status=approved');
    expect(kept.body).toContain('value="grace.hopper@example.com"');
    expect(kept.body).toMatch(/<option value="approved" selected>/);
  });

  it('shows a filter the flow refuses as an error in the page, never a 500', async () => {
    const cases: [string, number, string][] = [
      ['dateFrom=2026-02-30', 422, 'dateFrom must be a real date'],
      ['dateFrom=2026-03-02&dateTo=2026-03-01', 422, 'dateFrom must not be after dateTo'],
      ['cursor=not-a-cursor', 422, 'cursor is not a nextCursor this API gave'],
      ['cardLast4=12a', 422, 'the last four digits of the card number'],
      ['token=xyz', 422, 'a payment token is 32 hexadecimal characters'],
      ['status=paid', 422, 'one of init, pending'],
    ];
    for (const [query, status, message] of cases) {
      const page = await owner.get(`/dashboard/payments?${query}`);
      expect(page.statusCode, query).toBe(status);
      expect(page.body, query).toContain(message);
      expect(page.body, query).toContain('role="alert"');
      expect(page.body, query).toContain('<form method="get" action="/dashboard/payments"');
      const exported = await owner.get(`/dashboard/payments/export.csv?${query.startsWith('cursor') ? 'dateFrom=2026-02-30' : query}`);
      expect(exported.statusCode, query).toBe(422);
      expect(String(exported.headers['content-type'])).toContain('text/html');
    }
  });

  it('exports the filtered payments as CSV: quoted fields, no formula, an attachment', async () => {
    const member = await signedInMember(server);
    const key = member.merchant.sandboxKey;
    const tricky = await payments.hosted(key, {
      product: 'Tea, "green" and black',
      orderNumber: '=HYPERLINK("https://evil.example")',
      extraReturnParam: '+1 555 0100',
    });
    const plain = await payments.hosted(key, { product: 'Plain product', orderNumber: '@plain', amount: 123_456 });
    const exported = await member.get('/dashboard/payments/export.csv');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(exported.headers['content-disposition']).toMatch(/^attachment; filename="payments-sandbox-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = exported.body.split('\r\n');
    expect(lines[0]).toBe(
      'token,created_at,updated_at,operation_type,status,amount,currency,captured_amount,refunded_amount,order_number,product,customer_email,card_mask,decline_reason,extra_return_param',
    );
    expect(lines).toHaveLength(4); // header, two payments, the empty string after the last CRLF
    expect(lines[1]).toContain(`${plain.token},`);
    expect(lines[1]).toContain(",init,1234.56,USD,,0.00,'@plain,Plain product,");
    expect(lines[2]).toContain(`"'=HYPERLINK(""https://evil.example"")","Tea, ""green"" and black",,,,'+1 555 0100`);
    expect(lines[2]?.startsWith(tricky.token)).toBe(true);
    const filtered = await member.get('/dashboard/payments/export.csv?orderNumber=%40plain');
    expect(filtered.body.split('\r\n').filter(Boolean)).toHaveLength(2);
    await member.setEnvironment('production');
    const live = await member.get('/dashboard/payments/export.csv');
    expect(live.body.split('\r\n').filter(Boolean)).toHaveLength(1); // sandbox payments never leave test mode
  });

  it('streams an export of any size page by page, each payment once, newest first', async () => {
    const member = await signedInMember(server);
    const seed = await payments.hosted(member.merchant.sandboxKey, { orderNumber: 'bulk' });
    const copies = 1_234; // more than two pages of the export's reads
    await rows(sql`insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor,
        currency, gateway_amount_minor, gateway_currency, locale, created_at, updated_at)
      select md5(p.token || g::text), p.merchant_id, p.environment, p.operation_type, p.request_variant, p.status, p.product,
        p.amount_minor + g, p.currency, p.gateway_amount_minor, p.gateway_currency, p.locale,
        p.created_at - make_interval(secs => g), p.updated_at
      from payments p, generate_series(1, ${copies}) g where p.token = ${seed.token}`);
    const exported = await member.get('/dashboard/payments/export.csv');
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['transfer-encoding']).toBe('chunked');
    const body = exported.body.split('\r\n').filter(Boolean).slice(1);
    expect(body).toHaveLength(copies + 1);
    const tokens = body.map((line) => line.split(',')[0]);
    expect(new Set(tokens).size).toBe(copies + 1);
    const created = body.map((line) => line.split(',')[1] ?? '');
    expect([...created].sort().reverse()).toEqual(created);
    expect(tokens[0]).toBe(seed.token);
  });

  it('shows a payment’s timeline to every role, its actions and Resend only to the roles that may', async () => {
    const paid = await payments.approved(owner.merchant.sandboxKey, { orderNumber: 'timeline-1' });
    const may: Record<MemberRole, { refund: boolean; resend: boolean }> = {
      owner: { refund: true, resend: true },
      developer: { refund: false, resend: true },
      support: { refund: true, resend: true },
      viewer: { refund: false, resend: false },
    };
    for (const role of ROLES) {
      const member = await signedInMember(server, { role, merchant: owner.merchant });
      const page = await member.get(`/dashboard/payments/${paid.token}`);
      expect(page.statusCode, role).toBe(200);
      expect(page.body.match(/<h1>/g), role).toHaveLength(1);
      expect(page.body.includes(`/dashboard/payments/${paid.token}/refund`), role).toBe(may[role].refund);
      expect(page.body.includes('/notifications/resend'), role).toBe(may[role].resend);
    }
    const page = await owner.get(`/dashboard/payments/${paid.token}`);
    const section = (id: string) =>
      page.body.slice(page.body.indexOf(`<h2 id="${id}">`), page.body.indexOf('</section>', page.body.indexOf(`<h2 id="${id}">`)));
    expect(section('status-changes')).toMatch(/status-pending">pending<\/span> · <span class="cause">API</);
    expect(section('status-changes')).toMatch(/status-approved">approved<\/span> · <span class="cause">adapter answer</);
    expect(section('status-changes')).not.toContain('inferred'); // recorded, not read back
    expect(section('exchanges')).toContain('Payment request');
    expect(section('exchanges')).toContain('424242******4242');
    expect(section('exchanges')).not.toContain('4242424242424242');
    expect(section('exchanges')).not.toContain('"cvv"');
    expect(section('postings')).toContain('Payment captured');
    expect(section('postings')).toContain('+10.00 USD');
    expect(section('notifications')).toContain('Payment status');
    expect(section('refunds')).toContain('No refunds.');
    expect(section('disputes')).toContain('No disputes.');
    expect(section('conflicts')).toContain('No conflicts.');
    expect(section('summary')).toContain('Refundable now');
  });

  it('shows what a payment nobody paid yet has: one status, no exchange, no posting, no notification', async () => {
    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const page = await owner.get(`/dashboard/payments/${hosted.token}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/status-init">init<\/span> · <span class="cause">API</);
    for (const empty of [
      'No exchange with a gateway.',
      'Nothing was posted to your balance for this payment.',
      'No notification queued',
      'No delivery attempt yet.',
    ]) {
      expect(page.body).toContain(empty);
    }
    expect(page.body).toContain(`/dashboard/payments/${hosted.token}/cancel`);
    expect((await owner.get('/dashboard/payments/not-a-token')).statusCode).toBe(404);
  });

  it('follows a payment that is not final (htmx asks for its part again), and stops once it is final', async () => {
    const hosted = await payments.hosted(owner.merchant.sandboxKey);
    const open = await owner.get(`/dashboard/payments/${hosted.token}`);
    expect(open.body).toContain(`hx-get="/dashboard/payments/${hosted.token}" hx-trigger="every 3s" hx-select="#timeline-live"`);
    const cancelled = await owner.post(`/dashboard/payments/${hosted.token}/cancel`, {}, `/dashboard/payments/${hosted.token}/cancel`);
    expect(cancelled.statusCode).toBe(303);
    const final = await owner.get(`/dashboard/payments/${hosted.token}`);
    expect(final.body).toContain('<div id="timeline-live">');
    expect(final.body).not.toContain('hx-trigger');
  });
});
