import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { opsClient, signedInOperator, signedInOperators, totpCodeOf, type OpsClient } from '../../support/ops.ts';

const engines = await testEngines();

// Operator accounts in the console (admins only): a new operator's credentials shown once and working, role changes,
// disabling and enabling, the last active admin kept; each change recorded once, its secrets redacted.
describe.each(engines)('console operator pages on %s', (engine) => {
  let harness: Harness;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await harness.database.db.execute(query)) as unknown as { rows: T[] }).rows;
  const auditOf = async (operatorId: number) =>
    (await auditRowsOf(harness.database, { subjectType: 'operator', subjectId: operatorId })).filter((row) => row.action !== 'operator.sign_in');
  const operatorRow = async (email: string) =>
    (await rows<{ id: string; role: string; status: string }>(sql`select id::text, role, status from operators where email = ${email}`))[0];

  beforeAll(async () => {
    harness = await startHarness(engine);
    ({ admin, support, finance } = await signedInOperators(harness));
  });
  afterAll(async () => harness?.close());

  it('opens the operators page to admins only', async () => {
    expect([
      (await admin.get('/ops/operators')).statusCode,
      (await support.get('/ops/operators')).statusCode,
      (await finance.get('/ops/operators')).statusCode,
    ]).toEqual([200, 403, 403]);
  });

  it('creates an operator whose password, key and QR code are shown once and work; the audit log holds no secret', async () => {
    const email = `new-support-${engine}@payrail.example`;
    const created = await admin.post('/ops/operators', { email, role: 'support' }, '/ops/operators');
    expect(created.statusCode).toBe(200);
    expect(created.headers['cache-control']).toBe('no-store');
    const password = /id="new-operator-password">([^<]+)</.exec(created.body)?.[1] ?? '';
    const totpSecret = /id="new-operator-totp">([^<]+)</.exec(created.body)?.[1] ?? '';
    expect(password.length).toBeGreaterThanOrEqual(20);
    expect(totpSecret.length).toBeGreaterThanOrEqual(16);
    expect(created.body).toMatch(/<figure class="qr"[^>]*><svg/);
    const list = await admin.get('/ops/operators');
    expect(list.body).toContain(email);
    expect(list.body).not.toContain(password);
    expect(list.body).not.toContain(totpSecret);

    const client = opsClient(harness.app, {});
    expect((await client.post('/ops/login', { email, password }, '/ops/login')).statusCode).toBe(303);
    expect((await client.post('/ops/login/code', { code: await totpCodeOf(totpSecret), next: '/ops' }, '/ops/login/code')).statusCode).toBe(303);
    expect((await client.get('/ops/bank-accounts')).statusCode).toBe(200);

    const id = Number((await operatorRow(email))?.id);
    const events = await auditOf(id);
    expect(events).toEqual([expect.objectContaining({ actor: `operator:${admin.operatorId}`, action: 'operator.create', before: null })]);
    expect(events[0]?.after).toMatchObject({ email, role: 'support', status: 'active', password_hash: '[redacted]', totp_secret_sealed: '[redacted]' });
    const leaks = await rows(sql`select id from audit_events
      where position(${password} in coalesce(after::text, '')) > 0 or position(${totpSecret} in coalesce(after::text, '')) > 0`);
    expect(leaks).toEqual([]);
  });

  it('shows a refused creation: an e-mail address already taken', async () => {
    const taken = await admin.post('/ops/operators', { email: support.email, role: 'finance' }, '/ops/operators');
    expect(taken.statusCode).toBe(400);
    expect(taken.body).toContain('exists');
  });

  it('changes a role, disables and enables an operator, each recorded once', async () => {
    const target = await signedInOperator(harness, { role: 'support' });
    const changeTo = (form: Record<string, string>) => admin.post(`/ops/operators/${target.operatorId}`, form, '/ops/operators');
    expect((await changeTo({ role: 'finance' })).headers.location).toBe('/ops/operators?done=changed');
    expect((await target.get('/ops/ledger')).statusCode).toBe(303); // the role change ended its sessions
    expect((await changeTo({ status: 'disabled' })).statusCode).toBe(303);
    expect((await operatorRow(target.email))?.status).toBe('disabled');
    expect((await changeTo({ status: 'active' })).statusCode).toBe(303);
    const changes = (await auditOf(target.operatorId)).slice(1); // after its creation
    const update = { actor: `operator:${admin.operatorId}`, action: 'operator.update', subject_type: 'operator', subject_id: String(target.operatorId) };
    expect(changes).toEqual([
      { ...update, before: { role: 'support' }, after: { role: 'finance' } },
      { ...update, before: { status: 'active' }, after: { status: 'disabled' } },
      { ...update, before: { status: 'disabled' }, after: { status: 'active' } },
    ]);
  });

  it('keeps the last active admin, and says so', async () => {
    expect(await rows(sql`select count(*)::int as n from operators where role = 'admin' and status = 'active'`)).toEqual([{ n: 1 }]);
    const refused = await admin.post(`/ops/operators/${admin.operatorId}`, { status: 'disabled' }, '/ops/operators');
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('the last active admin keeps the admin role');
    expect((await admin.post(`/ops/operators/${admin.operatorId}`, { role: 'support' }, '/ops/operators')).statusCode).toBe(400);
    expect(await operatorRow(admin.email)).toMatchObject({ role: 'admin', status: 'active' });
    expect((await auditOf(admin.operatorId)).filter((event) => event.action === 'operator.update')).toEqual([]);
  });

  it('refuses forged operator changes from support and finance: nothing is created or changed', async () => {
    const email = `forged-${engine}@payrail.example`;
    expect((await support.post('/ops/operators', { email, role: 'admin' })).statusCode).toBe(403);
    expect(await operatorRow(email)).toBeUndefined();
    expect((await finance.post(`/ops/operators/${finance.operatorId}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await support.post(`/ops/operators/${admin.operatorId}`, { status: 'disabled' })).statusCode).toBe(403);
    expect(await operatorRow(finance.email)).toMatchObject({ role: 'finance', status: 'active' });
    expect(await operatorRow(admin.email)).toMatchObject({ role: 'admin', status: 'active' });
  });
});
