import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { adminClient } from '../../../src/cli/admin-client.ts';
import { runConflictCommand } from '../../../src/cli/conflict-commands.ts';
import { addGateway, gatewaySettings, ORDER, postCallback, signedCallback, type CallbackMerchant } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

// issue 18 item 3: a late callback or status answer that contradicts a final status is kept as a conflict.
describe.each(engines)('late answers that contradict a final status, on %s', (engine) => {
  let server: ServerHarness;
  let receiver: Receiver;

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver?.close();
    await server?.close();
  });

  const database = () => server.running.app.payrail.database;
  const admin = (method: string, path: string, body?: unknown) => server.call(method, `/api/admin/v1${path}`, { key: server.adminKey, body });

  const merchantWith = async (adapter: FakeAdapter, top: Record<string, unknown> = {}, statusChecker = false): Promise<CallbackMerchant> => {
    const merchant = await server.createMerchant('Conflict merchant');
    const gateway = await addGateway(server, merchant.id, 'acquirer', gatewaySettings(adapter, top, statusChecker));
    return { ...merchant, gateway };
  };
  const fakeAdapter = async () => {
    const adapter = await startFakeAdapter();
    onTestFinished(() => adapter.close());
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-conflict')));
    return adapter;
  };
  const pendingPayment = async (merchant: CallbackMerchant) => {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.productionKey,
      body: {
        ...ORDER,
        callbackUrl: `${receiver.url}/conflicts`,
        orderNumber: `conflict-${randomBytes(4).toString('hex')}`,
        card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.payment.status).toBe('pending');
    return created.body.token as string;
  };
  const callback = async (merchant: CallbackMerchant, token: string, claims: Record<string, unknown>) =>
    postCallback(server, token, await signedCallback(merchant.gateway.signKey, merchant.productionKey, { gateway_token: 'gw-conflict', ...claims }));
  const paymentOf = async (merchant: CallbackMerchant, token: string) =>
    (await server.call('GET', `/api/v1/payments/${token}`, { key: merchant.productionKey })).body.payment;
  const conflictsOf = async (token: string, state: 'all' | 'unresolved' = 'all') => {
    const listed = await admin('GET', `/conflicts?state=${state}&perPage=100`);
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return (listed.body.conflicts as Record<string, any>[]).filter((conflict) => conflict.payment_token === token);
  };
  const notificationsOf = (token: string) =>
    receiver.received.map((item) => JSON.parse(item.body) as Record<string, unknown>).filter((body) => body['token'] === token);
  const availableOf = async (merchant: CallbackMerchant) =>
    (await server.call('GET', `/api/v1/balance?currency=${ORDER.currency}`, { key: merchant.productionKey })).body.wallet.available as number;
  const violationsAbout = async (ref: Record<string, number>) => {
    const checked = await admin('GET', '/ledger/check');
    expect(checked.status).toBe(200);
    return (checked.body.violations as { rule: string; ref: Record<string, number> }[]).filter((violation) =>
      Object.entries(ref).every(([key, value]) => violation.ref[key] === value),
    );
  };
  const declinedPayment = async () => {
    const adapter = await fakeAdapter();
    const merchant = await merchantWith(adapter);
    const token = await pendingPayment(merchant);
    expect(await callback(merchant, token, { status: 'declined', reason: 'do not honour' })).toMatchObject({ status: 200, body: { applied: true } });
    return { adapter, merchant, token };
  };

  it('keeps a declined payment declined when a late callback approves it, records one conflict and tells the merchant', async () => {
    const { merchant, token } = await declinedPayment();
    const late = await callback(merchant, token, { status: 'approved', provider_note: 'card 4111111111111111 charged' });
    expect(late).toMatchObject({ status: 200, body: { success: true, applied: false } });
    expect(await paymentOf(merchant, token)).toMatchObject({ status: 'declined', decline_reason: 'gateway response error: do not honour' });

    const [conflict, ...others] = await conflictsOf(token, 'unresolved');
    expect(others).toEqual([]);
    expect(conflict).toMatchObject({
      source: 'callback',
      merchant_id: merchant.id,
      environment: 'production',
      payment_status: 'declined',
      current_status: 'declined',
      reported_status: 'approved',
      reported_amount: ORDER.amount,
      reported_currency: ORDER.currency,
      raw_answer: { status: 'approved', gateway_token: 'gw-conflict' },
      resolution: null,
      resolved_by: null,
      resolved_at: null,
    });
    expect(JSON.stringify(conflict!.raw_answer)).not.toContain('4111111111111111');
    expect(JSON.stringify(conflict!.raw_answer)).not.toContain(merchant.productionKey);

    // The provider retries with a fresh signature, and the same JWT is replayed: still one conflict.
    expect(await callback(merchant, token, { status: 'approved' })).toMatchObject({ status: 200, body: { applied: false } });
    expect(await conflictsOf(token)).toHaveLength(1);

    await expect
      .poll(() => notificationsOf(token).map((body) => [body['type'], body['status']]), { timeout: 10_000, interval: 100 })
      .toEqual([
        ['pay', 'declined'],
        ['conflict', 'approved'],
      ]);
  });

  it('accepts a conflict: the reported status through the state machine, with its posting and notification, once', async () => {
    const { merchant, token } = await declinedPayment();
    await callback(merchant, token, { status: 'approved' });
    const [conflict] = await conflictsOf(token);
    expect(await availableOf(merchant)).toBe(0);

    const accepted = await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'accept', operator: 'ops@acme' });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.conflict).toMatchObject({ id: conflict!.id, resolution: 'accepted', resolved_by: 'ops@acme', current_status: 'approved' });
    expect(Date.parse(accepted.body.conflict.resolved_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await paymentOf(merchant, token)).toMatchObject({ status: 'approved', decline_reason: null });
    expect(await availableOf(merchant)).toBe(ORDER.amount);
    expect(await violationsAbout({ paymentId: await paymentIdOf(token) })).toEqual([]);
    await expect.poll(() => notificationsOf(token).map((body) => body['status']), { timeout: 10_000, interval: 100 }).toContain('approved');

    const again = await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'dismiss' });
    expect(again).toMatchObject({ status: 409, body: { success: false, errors: [{ code: 'invalid_state' }] } });
    expect((await paymentOf(merchant, token)).status).toBe('approved');
    expect(await conflictsOf(token, 'unresolved')).toEqual([]);
  });

  it('keeps an expired payment expired when a late callback approves it; dismiss keeps it, and says who and when', async () => {
    const adapter = await fakeAdapter();
    const merchant = await merchantWith(adapter);
    const token = await pendingPayment(merchant);
    // Its lifetime ended while pending (the expiry of a pending payment is another path's; its result is this row).
    await database().db.execute(sql`update payments set status = 'expired', finalized_at = now() where token = ${token}`);
    expect(await callback(merchant, token, { status: 'approved' })).toMatchObject({ status: 200, body: { applied: false } });
    const [conflict] = await conflictsOf(token);
    expect(conflict).toMatchObject({ source: 'callback', payment_status: 'expired', reported_status: 'approved' });

    const dismissed = await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'dismiss' });
    expect(dismissed.status, JSON.stringify(dismissed.body)).toBe(200);
    expect(dismissed.body.conflict).toMatchObject({
      resolution: 'dismissed',
      resolved_by: expect.stringMatching(/^admin key from /),
      current_status: 'expired',
    });
    expect((await paymentOf(merchant, token)).status).toBe('expired');
    expect(await availableOf(merchant)).toBe(0);
    expect(await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'accept' })).toMatchObject({ status: 409 });
  });

  it('records a conflict from a status answer that approves a payment a callback declined meanwhile', async () => {
    const adapter = await fakeAdapter();
    const merchant = await merchantWith(adapter, {}, true);
    adapter.respond('status', async (request) => {
      await callback(merchant, request.body.payment.token, { status: 'declined', reason: 'fraud suspected' });
      return reply.json(adapterAnswer.approved('gw-conflict', { amount: ORDER.amount, currency: ORDER.currency }));
    });
    const token = await pendingPayment(merchant);
    await expect.poll(async () => (await conflictsOf(token)).length, { timeout: 15_000, interval: 100 }).toBe(1);
    const [conflict] = await conflictsOf(token);
    expect(conflict).toMatchObject({ source: 'status', payment_status: 'declined', reported_status: 'approved', raw_answer: { status: 'approved' } });
    expect((await paymentOf(merchant, token)).status).toBe('declined');
  });

  it('applies a late decline through the state machine when the gateway sets enable_change_final_status: no conflict', async () => {
    const adapter = await fakeAdapter();
    const merchant = await merchantWith(adapter, { enable_change_final_status: true });
    const token = await pendingPayment(merchant);
    expect(await callback(merchant, token, { status: 'approved' })).toMatchObject({ status: 200, body: { applied: true } });
    expect(await availableOf(merchant)).toBe(ORDER.amount);
    expect(await callback(merchant, token, { status: 'declined', reason: 'chargeback' })).toMatchObject({ status: 200, body: { applied: true } });
    expect(await paymentOf(merchant, token)).toMatchObject({ status: 'declined', decline_reason: 'gateway response error: chargeback' });
    expect(await availableOf(merchant)).toBe(0);
    expect(await violationsAbout({ paymentId: await paymentIdOf(token) })).toEqual([]);
    expect(await conflictsOf(token)).toEqual([]);
    await expect.poll(() => notificationsOf(token).map((body) => body['status']), { timeout: 10_000, interval: 100 }).toEqual(['approved', 'declined']);
  });

  it('lists unresolved conflicts with a count, pages with a maximum, and refuses what the schema does not allow', async () => {
    const { merchant, token } = await declinedPayment();
    await callback(merchant, token, { status: 'approved' });
    const listed = await admin('GET', '/conflicts');
    expect(listed.body).toMatchObject({ success: true, page: 1, perPage: 50 });
    expect(listed.body.unresolvedCount).toBeGreaterThanOrEqual(1);
    expect(listed.body.unresolvedCount).toBe(listed.body.totalCount);
    expect(await admin('GET', '/conflicts?perPage=101')).toMatchObject({ status: 422 });
    expect(await admin('GET', '/conflicts?page=1e309')).toMatchObject({ status: 422 });
    expect(await admin('GET', '/conflicts?state=open')).toMatchObject({ status: 422 });
    expect(await admin('POST', '/conflicts/999999999/resolve', { action: 'accept' })).toMatchObject({ status: 404, body: { errors: [{ code: 'not_found' }] } });
    const [conflict] = await conflictsOf(token);
    expect(await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'approve' })).toMatchObject({ status: 422 });
    expect(await server.call('GET', '/api/admin/v1/conflicts', { key: merchant.productionKey })).toMatchObject({ status: 401 });
  });

  it('payrail conflicts lists the unresolved ones and resolves one with --accept or --dismiss', async () => {
    const { merchant, token } = await declinedPayment();
    await callback(merchant, token, { status: 'approved' });
    const [conflict] = await conflictsOf(token);
    const client = adminClient(server.running.app.payrail.config, server.baseUrl);
    onTestFinished(() => client.close());
    const lines: string[] = [];
    await runConflictCommand(client, [], { json: false }, (line) => lines.push(line));
    expect(lines.find((line) => line.includes(token))).toMatch(
      new RegExp(`^#${conflict!.id}\\t.*kept declined.*callback reported approved 1999 EUR.*unresolved$`),
    );
    expect(lines.at(-1)).toMatch(/^\d+ unresolved conflict\(s\)$/);

    await expect(runConflictCommand(client, ['resolve', String(conflict!.id)], { json: false }, () => {})).rejects.toThrow(/--accept or --dismiss/);
    const resolved: string[] = [];
    await runConflictCommand(client, ['resolve', String(conflict!.id)], { accept: true, operator: 'cli-operator', json: true }, (line) => resolved.push(line));
    expect(JSON.parse(resolved[0]!)).toMatchObject({ id: conflict!.id, resolution: 'accepted', resolved_by: 'cli-operator', current_status: 'approved' });
    expect((await paymentOf(merchant, token)).status).toBe('approved');
    await expect(runConflictCommand(client, ['resolve', String(conflict!.id)], { dismiss: true, json: false }, () => {})).rejects.toThrow(/HTTP 409/);
  });

  it('reports an unresolved conflict older than 24 hours in the ledger check, until it is resolved', async () => {
    const { merchant, token } = await declinedPayment();
    await callback(merchant, token, { status: 'approved' });
    const [conflict] = await conflictsOf(token);
    expect(await violationsAbout({ conflictId: conflict!.id })).toEqual([]);
    await database().db.execute(sql`update payment_conflicts set created_at = now() - interval '25 hours' where id = ${conflict!.id}`);
    expect(await violationsAbout({ conflictId: conflict!.id })).toEqual([
      {
        rule: 'unresolved_conflict',
        message: expect.stringContaining('accept or dismiss'),
        ref: { conflictId: conflict!.id, paymentId: await paymentIdOf(token) },
      },
    ]);
    expect((await admin('POST', `/conflicts/${conflict!.id}/resolve`, { action: 'dismiss' })).status).toBe(200);
    expect(await violationsAbout({ conflictId: conflict!.id })).toEqual([]);
  });

  const paymentIdOf = async (token: string) =>
    (await queryRows<{ id: number }>(database(), sql`select id::int as id from payments where token = ${token}`))[0]!.id;
});
