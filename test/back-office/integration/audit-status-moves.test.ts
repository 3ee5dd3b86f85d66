import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness } from '../../support/harness.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();

interface AuditEventJson {
  id: number;
  occurred_at: string;
  actor: string;
  action: string;
  subject_type: string;
  subject_id: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

// The audit log reads payments' status moves from payment_status_changes and every other event from audit_events
// (migration 0018): one log newest first by one id, one cursor, every filter applied to both.
describe.each(engines)('the audit log’s status moves on %s', (engine) => {
  let harness: Harness;
  const list = async (query: string): Promise<{ events: AuditEventJson[]; next_cursor: string | null }> => {
    const answer = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/audit-events?${query}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json();
  };

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('interleaves moves and other events newest first by one id, pages them by one cursor, and filters both alike', async () => {
    const merchant = await harness.createMerchant('Moves and events');
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    expect(created.statusCode, created.body).toBe(200);
    const token = created.json().token as string;
    const renamed = await harness.app.inject({
      method: 'PATCH',
      url: `/api/admin/v1/merchants/${merchant.id}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { display_name: 'Moves, events' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const cancelled = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: `/api/v1/payments/${token}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [payment] = await queryRows<{ id: number }>(harness.database, sql`select id from payments where token = ${token}`);
    const paymentId = String(payment!.id);
    const keyActor = `key:${merchant.sandboxKey.slice(0, 'sk_sandbox_'.length + 4)}`;
    // The cancel's transaction got the key's audit settings with its BEGIN (platform/audit-handoff.ts); migration
    // 0019's trigger adds a person's action, request id and address to a move, never a key's.
    const storedMoves = await queryRows<{ actor: string | null; action: string | null; request_id: string | null; ip_address: string | null }>(
      harness.database,
      sql`select actor, action, request_id, ip_address from payment_status_changes where payment_id = ${payment!.id} order by id`,
    );
    expect(storedMoves.at(-1)).toEqual({ actor: keyActor, action: null, request_id: null, ip_address: null });

    const newest = (await list('limit=8')).events;
    expect(newest.slice(0, 3).map((event) => [event.subject_type, event.subject_id, event.action])).toEqual([
      ['payment', paymentId, 'payment.status_changed'],
      ['merchant', String(merchant.id), 'merchant.updated'],
      ['payment', paymentId, 'payment.created'],
    ]);
    const ids = newest.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((left, right) => right - left));
    expect(new Set(ids).size).toBe(ids.length);

    // one event a page, by the cursor, gives the same log
    const paged: AuditEventJson[] = [];
    let cursor: string | null = null;
    do {
      const page: { events: AuditEventJson[]; next_cursor: string | null } = await list(`limit=1${cursor === null ? '' : `&cursor=${cursor}`}`);
      paged.push(...page.events);
      cursor = page.next_cursor;
    } while (cursor !== null && paged.length < newest.length);
    expect(paged.map((event) => event.id)).toEqual(ids);

    const moves = (await list(`subject=payment:${paymentId}`)).events;
    expect(moves.map((event) => [event.actor, event.action, event.before, event.after])).toEqual([
      [keyActor, 'payment.status_changed', { status: 'init' }, { status: 'cancelled', cause: 'api' }],
      [keyActor, 'payment.created', null, { status: 'init', cause: 'api' }],
    ]);
    expect((await list(`subject=merchant:${merchant.id}`)).events.every((event) => event.subject_type === 'merchant')).toBe(true);
    expect((await list(`subject=payout:${paymentId}`)).events).toEqual([]);
    expect((await list(`subject=payment:not-a-number`)).events).toEqual([]);
    const byKey = (await list(`actor=${encodeURIComponent(keyActor)}`)).events;
    expect(byKey.map((event) => event.id)).toEqual(moves.map((event) => event.id));
    const createdOnly = (await list(`subject=payment:${paymentId}&action=payment.created`)).events;
    expect(createdOnly.map((event) => event.id)).toEqual([moves[1]!.id]);
    expect((await list(`subject=payment:${paymentId}&action=merchant.updated`)).events).toEqual([]);
    const cancelledAt = moves[0]!.occurred_at;
    expect((await list(`subject=payment:${paymentId}&to=${encodeURIComponent(cancelledAt)}`)).events.map((event) => event.id)).toEqual([moves[1]!.id]);
    expect((await list(`subject=payment:${paymentId}&from=${encodeURIComponent(cancelledAt)}`)).events.map((event) => event.id)).toEqual([moves[0]!.id]);

    // the engine's moves carry no actor and are found as system:<cause>
    await harness.database.db.execute(sql`insert into payment_status_changes (payment_id, from_status, to_status, cause)
      values (${payment!.id}, 'cancelled', 'expired', 'expiry')`);
    const byEngine = (await list(`actor=system:expiry&subject=payment:${paymentId}`)).events;
    expect(byEngine.map((event) => [event.actor, event.action, event.after])).toEqual([
      ['system:expiry', 'payment.status_changed', { status: 'expired', cause: 'expiry' }],
    ]);
    const csv = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/audit-events.csv?subject=payment:${paymentId}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trimEnd().split('\r\n')).toHaveLength(4); // the header and three moves
  });

  it('keeps the action, request id and address a person’s request handed over with the move', async () => {
    const merchant = await harness.createMerchant('Moved by a person');
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    const [payment] = await queryRows<{ id: number }>(harness.database, sql`select id from payments where token = ${created.json().token}`);
    await harness.database.db.transaction(async (tx) => {
      await tx.execute(sql`select set_config('payrail.actor', 'operator:7', true), set_config('payrail.action', 'payment.check_status', true),
        set_config('payrail.request_id', 'req-move-7', true), set_config('payrail.ip', '203.0.113.7', true)`);
      await tx.execute(sql`insert into payment_status_changes (payment_id, from_status, to_status, cause)
        values (${payment!.id}, 'init', 'expired', 'status_check')`);
    });
    const answer = await harness.app.inject({
      method: 'GET',
      url: '/api/admin/v1/audit-events?actor=operator:7',
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(answer.json().events).toEqual([
      expect.objectContaining({
        actor: 'operator:7',
        action: 'payment.check_status',
        subject_id: String(payment!.id),
        request_id: 'req-move-7',
        ip_address: '203.0.113.7',
      }),
    ]);
    const byAction = await harness.app.inject({
      method: 'GET',
      url: `/api/admin/v1/audit-events?action=payment.check_status&subject=payment:${payment!.id}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(byAction.json().events).toHaveLength(1);
  });
});
