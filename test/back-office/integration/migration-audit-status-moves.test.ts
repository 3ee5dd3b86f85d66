import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../../../src/back-office/store/audit-repo.ts';
import { createMerchant } from '../../../src/payments/flows/merchants.ts';
import type { Database } from '../../../src/platform/database.ts';
import { testEngines } from '../../support/databases.ts';
import { insertPaymentBefore, openDatabaseMigratedBefore, type DatabaseBefore } from '../../support/migrated-before.ts';
import { queryRows } from '../../support/sql.ts';

const engines = await testEngines();
const AUDIT_READS_MOVES_MIGRATION_INDEX = 18;
const everything = { subjectType: null, subjectId: null, actor: null, action: null, from: null, to: null, beforeId: null };

// Migration 0018 on moves written before it: those were copied into audit_events by the dropped trigger, so the log
// shows each once (the copy), a move written after it once (its own row), and no id twice, even where
// payment_status_changes' own sequence had run ahead of audit_events'.
describe.each(engines)('migration 0018 (the audit log reads status moves) on moves written before it, on %s', (engine) => {
  let database: Database;
  let before: DatabaseBefore | null = null;

  beforeAll(async () => {
    before = await openDatabaseMigratedBefore(engine, AUDIT_READS_MOVES_MIGRATION_INDEX);
    database = before.database;
  });
  afterAll(async () => before?.close());

  it('shows every move once, old and new, under ids no other event has', async () => {
    const { merchant } = await createMerchant(database.db, randomBytes(32), 'Moves before and after');
    const paymentId = await insertPaymentBefore(database, {
      merchantId: merchant.id,
      operationType: 'pay',
      status: 'pending',
      product: 'Moves before and after',
      amountMinor: 500,
    });
    // moves from before the audit log (migration 0014's era) left this table's sequence ahead of audit_events'
    await database.db.execute(sql`select setval('payment_status_changes_id_seq', 5000)`);
    await database.db.execute(sql`insert into payment_status_changes (payment_id, from_status, to_status, cause, actor)
      values (${paymentId}, null, 'init', 'api', 'key:sk_sandbox_abcd'), (${paymentId}, 'init', 'pending', 'customer', null)`);

    await database.migrate();
    await database.db.execute(sql`insert into payment_status_changes (payment_id, from_status, to_status, cause)
      values (${paymentId}, 'pending', 'approved', 'callback')`);
    await database.db.execute(
      sql`insert into audit_events (actor, action, subject_type, subject_id) values ('admin-key', 'merchant.updated', 'merchant', '1')`,
    );

    const log = await listAuditEvents(database.db, { ...everything, subjectType: 'payment', subjectId: String(paymentId) }, 100);
    expect(log.map((event) => [event.actor, event.action, event.before, event.after])).toEqual([
      ['system:callback', 'payment.status_changed', { status: 'pending' }, { status: 'approved', cause: 'callback' }],
      ['system:customer', 'payment.status_changed', { status: 'init' }, { status: 'pending', cause: 'customer' }],
      ['key:sk_sandbox_abcd', 'payment.created', null, { status: 'init', cause: 'api' }],
    ]);
    const whole = await listAuditEvents(database.db, everything, 10_000);
    const ids = whole.map((event) => event.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort((left, right) => right - left));
    const [newest] = await queryRows<{ id: number }>(database, sql`select max(id)::int as id from payment_status_changes`);
    expect(newest!.id).toBeGreaterThan(5000);
    expect(whole[0]?.action).toBe('merchant.updated'); // written last, newest
  });
});
