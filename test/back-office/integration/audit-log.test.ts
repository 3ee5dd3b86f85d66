import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDITED_TABLES, STATUS_AUDITED_TABLES } from '../../../src/platform/audit-handoff.ts';
import { runInAuditContext } from '../../../src/platform/lib/audit-context.ts';
import { auditRowsOf } from '../../support/audit.ts';
import { signedInMember } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, validPaymentA, type Harness } from '../../support/harness.ts';
import { opsClient, totpCodeOf } from '../../support/ops.ts';

const engines = await testEngines();

describe.each(engines)('the audit log on %s', (engine) => {
  let harness: Harness;
  const admin = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) =>
    harness.app.inject({ method, url: `/api/admin/v1${url}`, headers: { authorization: `Bearer ${harness.adminKey}` }, ...(payload ? { payload } : {}) });
  const auditOf = (subjectType: string, subjectId: string | number) => auditRowsOf(harness.database, { subjectType, subjectId });

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('records what the admin key changes as the actor admin-key, with the changed fields before and after', async () => {
    const merchant = await harness.createMerchant('Audited Books');
    const renamed = await admin('PATCH', `/merchants/${merchant.id}`, { display_name: 'Audited' });
    expect(renamed.statusCode).toBe(200);
    const rows = await auditOf('merchant', merchant.id);
    expect(rows.map((row) => [row.actor, row.action])).toEqual([
      ['admin-key', 'merchant.created'],
      ['admin-key', 'merchant.updated'],
    ]);
    expect(rows[1]?.before).toEqual({ display_name: null });
    expect(rows[1]?.after).toEqual({ display_name: 'Audited' });
    const requestIds = await harness.database.db.execute<{ request_id: string | null }>(
      sql`select request_id from audit_events where subject_type = 'merchant' and subject_id = ${String(merchant.id)} order by id`,
    );
    expect(requestIds.rows[1]?.request_id).toBe(renamed.headers['x-request-id']);
  });

  it('shows a rotated key as redacted, never its value or digest', async () => {
    const merchant = await harness.createMerchant('Key rotator');
    const rotated = await admin('POST', `/merchants/${merchant.id}/keys/sandbox/rotate`);
    expect(rotated.statusCode, rotated.body).toBe(200);
    const rows = await auditOf('merchant_key', `${merchant.id}:sandbox`);
    const rotation = rows.at(-1);
    expect(rotation?.actor).toBe('admin-key');
    expect(rotation?.after?.['key_digest']).toBe('[redacted]');
    expect(rotation?.after?.['key_sealed']).toBe('[redacted]');
    const everything = JSON.stringify(rows);
    expect(everything).not.toContain(merchant.sandboxKey);
    expect(everything).not.toContain(JSON.stringify(rotated.json()).match(/sk_sandbox_[A-Za-z0-9_-]+/)?.[0] ?? 'no key in the answer');
  });

  it('records a payment’s moves under the merchant key that made them, by its prefix', async () => {
    const merchant = await harness.createMerchant('Key actor');
    const created = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: '/api/v1/payments', payload: validPaymentA });
    expect(created.statusCode, created.body).toBe(200);
    const token = created.json().token as string;
    const cancelled = await harness.merchantRequest(merchant.sandboxKey, { method: 'POST', url: `/api/v1/payments/${token}/cancel` });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    const [payment] = (await harness.database.db.execute<{ id: number }>(sql`select id from payments where token = ${token}`)).rows;
    const rows = await auditOf('payment', String(payment?.id));
    const keyActor = `key:${merchant.sandboxKey.slice(0, 'sk_sandbox_'.length + 4)}`;
    expect(rows.map((row) => [row.actor, row.action, row.before, row.after])).toEqual([
      [keyActor, 'payment.created', null, { status: 'init', cause: 'api' }],
      [keyActor, 'payment.status_changed', { status: 'init' }, { status: 'cancelled', cause: 'api' }],
    ]);
  });

  it('records a dashboard member’s change as member:<id>', async () => {
    const owner = await signedInMember(harness);
    expect((await owner.post('/dashboard/settings/business', { displayName: 'Member-made' })).statusCode).toBe(200);
    const rows = await auditOf('merchant', owner.merchant.id);
    expect(rows.at(-1)).toMatchObject({ actor: `member:${owner.memberId}`, after: { display_name: 'Member-made' } });
  });

  // The mechanism, below every flow: the database driver hands the actor to a write of an audited table, in its
  // transaction or in one of its own, whatever the statement's shape; a write under no actor is the system's.
  it('hands the actor to every write of an audited table: outside a transaction, inside one, and raw SQL', async () => {
    const merchant = await harness.createMerchant('Driver-level');
    const db = harness.database.db;
    const asActor = (actor: 'operator:901' | 'member:902' | 'admin-key', work: () => Promise<unknown>) =>
      runInAuditContext({ actor, action: null, requestId: `req-${actor}`, ipAddress: '198.51.100.4' }, work);
    // drizzle's queries run when awaited: awaited inside the context, as a flow does
    await asActor('operator:901', async () => {
      await db.execute(sql`update merchants set display_name = 'Raw SQL' where id = ${merchant.id}`);
    });
    await asActor('member:902', () =>
      db.transaction(async (tx) => {
        await tx.execute(sql`select 1`);
        await tx.execute(sql`UPDATE "merchants" SET "display_name" = 'In a transaction' WHERE "id" = ${merchant.id}`);
      }),
    );
    await db.execute(sql`update merchants set display_name = 'No actor' where id = ${merchant.id}`);
    const rows = (
      await db.execute<{ actor: string; after: { display_name: string }; request_id: string | null; ip_address: string | null }>(
        sql`select actor, after, request_id, ip_address from audit_events where subject_type = 'merchant' and subject_id = ${String(merchant.id)} and action = 'merchant.updated' order by id`,
      )
    ).rows;
    expect(rows).toEqual([
      { actor: 'operator:901', after: { display_name: 'Raw SQL' }, request_id: 'req-operator:901', ip_address: '198.51.100.4' },
      { actor: 'member:902', after: { display_name: 'In a transaction' }, request_id: 'req-member:902', ip_address: '198.51.100.4' },
      { actor: 'system', after: { display_name: 'No actor' }, request_id: null, ip_address: null },
    ]);
  });

  it('hands the actor over for exactly the tables that have an audit trigger', async () => {
    const triggered = await harness.database.db.execute<{ table_name: string }>(
      sql`select distinct event_object_table as table_name from information_schema.triggers where action_statement like '%audit_row_change%' order by 1`,
    );
    expect(triggered.rows.map((row) => row.table_name)).toEqual([...AUDITED_TABLES].sort());
    // The tables whose UPDATE trigger fires only on a change of status, and nothing else of theirs but INSERT.
    const statusOnly = await harness.database.db.execute<{ table_name: string }>(
      sql`select event_object_table as table_name from information_schema.triggers where action_statement like '%audit_row_change%'
        group by 1 having bool_and(event_manipulation = 'INSERT' or (event_manipulation = 'UPDATE' and action_condition ilike '%status%'))
        and bool_or(event_manipulation = 'UPDATE') order by 1`,
    );
    expect(statusOnly.rows.map((row) => row.table_name)).toEqual([...STATUS_AUDITED_TABLES].sort());
  });

  it('refuses UPDATE, DELETE and TRUNCATE of audit_events in the database itself', async () => {
    await harness.createMerchant('Something to audit');
    const db = harness.database.db;
    // drizzle wraps the database's error: its cause is what PostgreSQL said
    const refusal = (statement: Promise<unknown>) =>
      statement.then(
        () => 'accepted',
        (error: Error & { cause?: Error }) => error.cause?.message ?? error.message,
      );
    expect(await refusal(db.execute(sql`update audit_events set actor = 'someone-else'`))).toBe('audit_events is append-only: UPDATE refused');
    expect(await refusal(db.execute(sql`delete from audit_events`))).toBe('audit_events is append-only: DELETE refused');
    expect(await refusal(db.execute(sql`truncate audit_events`))).toBe('audit_events is append-only: TRUNCATE refused');
    const [left] = (await db.execute<{ total: number }>(sql`select count(*)::int as total from audit_events where actor = 'someone-else'`)).rows;
    expect(left?.total).toBe(0);
  });

  it('pages the log newest first by a cursor, filters it, and exports it as CSV', async () => {
    const merchant = await harness.createMerchant('Paged');
    for (const name of ['One', 'Two', 'Three']) await admin('PATCH', `/merchants/${merchant.id}`, { display_name: name });
    const first = await admin('GET', `/audit-events?subject=merchant:${merchant.id}&limit=2`);
    expect(first.statusCode).toBe(200);
    const firstPage = first.json();
    expect(firstPage.events.map((event: { after: { display_name?: string } }) => event.after.display_name)).toEqual(['Three', 'Two']);
    const second = (await admin('GET', `/audit-events?subject=merchant:${merchant.id}&limit=2&cursor=${firstPage.next_cursor}`)).json();
    expect(second.events.map((event: { action: string }) => event.action)).toEqual(['merchant.updated', 'merchant.created']);
    expect(second.next_cursor).toBeNull();
    const byAction = (await admin('GET', `/audit-events?subject=merchant:${merchant.id}&action=merchant.created&actor=admin-key`)).json();
    expect(byAction.events).toHaveLength(1);
    const csv = await admin('GET', `/audit-events.csv?subject=merchant:${merchant.id}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,occurred_at,actor,action,subject_type,subject_id,before,after,request_id,ip_address');
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain('"{""display_name"":""Two""}","{""display_name"":""Three""}"');
    for (const bad of ['subject=Merchant!', 'from=yesterday', 'cursor=-4']) {
      const refused = await admin('GET', `/audit-events?${bad}`);
      expect(refused.statusCode, bad).toBe(400);
      expect(refused.json().success).toBe(false);
    }
  });

  it('creates an operator over the admin API who signs in with the password and TOTP code it was given once', async () => {
    const created = await admin('POST', '/operators', { email: `api-made-${engine}@payrail.example`, role: 'finance' });
    expect(created.statusCode, created.body).toBe(200);
    const answer = created.json();
    expect(answer.operator).toMatchObject({ role: 'finance', status: 'active' });
    expect(answer.totp_uri).toMatch(/^otpauth:\/\/totp\//);
    const client = opsClient(harness.app, {});
    expect((await client.post('/ops/login', { email: answer.operator.email, password: answer.password }, '/ops/login')).statusCode).toBe(303);
    expect((await client.post('/ops/login/code', { code: await totpCodeOf(answer.totp_secret) }, '/ops/login/code')).statusCode).toBe(303);
    expect((await client.get('/ops')).statusCode).toBe(200);
    const rows = await auditOf('operator', answer.operator.id);
    expect(rows[0]).toMatchObject({ actor: 'admin-key', action: 'operator.create' });
    expect(rows[0]?.after?.['password_hash']).toBe('[redacted]');
    expect(rows[0]?.after?.['totp_secret_sealed']).toBe('[redacted]');
    expect(JSON.stringify(rows)).not.toContain(answer.totp_secret);
    expect((await admin('POST', '/operators', { email: answer.operator.email, role: 'admin' })).statusCode).toBe(409);
  });

  it('turns the admin key off when there is none: every admin call is refused with admin_key_disabled', async () => {
    const context = harness.app.payrail;
    const key = context.adminKey;
    context.adminKey = null;
    try {
      const refused = await admin('GET', '/audit-events');
      expect(refused.statusCode).toBe(401);
      expect(refused.json().errors[0].code).toBe('admin_key_disabled');
    } finally {
      context.adminKey = key;
    }
  });
});
