import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOperator } from '../../../src/back-office/flows/operators.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { opsClient, signedInOperator, totpCodeOf } from '../../support/ops.ts';

const engines = await testEngines();

describe.each(engines)('operator sign-in on %s', (engine) => {
  let harness: Harness;
  const deps = () => ({ db: harness.database.db, masterKey: harness.app.payrail.masterKey, scryptLogN: harness.app.payrail.config.passwordScryptLogN });
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  it('signs an operator in with password and TOTP code, and records the sign-in in the audit log', async () => {
    const operator = await signedInOperator(harness, { role: 'support' });
    const overview = await operator.get('/ops');
    expect(overview.statusCode).toBe(200);
    expect(overview.body).toContain(`${operator.email} · support`);
    const events = await harness.database.db.execute<{ actor: string; action: string; subject_id: string }>(
      sql`select actor, action, subject_id from audit_events where action = 'operator.sign_in' and subject_id = ${String(operator.operatorId)}`,
    );
    expect(events.rows).toEqual([{ actor: `operator:${operator.operatorId}`, action: 'operator.sign_in', subject_id: String(operator.operatorId) }]);
  });

  it('opens nothing with the password alone: the half session cannot read a page, and a wrong code is refused', async () => {
    const credentials = await createOperator(deps(), { email: `half-${engine}@payrail.example`, role: 'admin' });
    const client = opsClient(harness.app, {});
    const login = await client.post('/ops/login', { email: credentials.operator.email, password: credentials.password }, '/ops/login');
    expect(login.statusCode).toBe(303);
    const pending = client.cookie('__Host-payrail_ops_signin');
    expect(pending).toBeTruthy();
    // the half session's token used as a session cookie opens nothing
    const forged = opsClient(harness.app, { '__Host-payrail_ops_session': pending ?? '' });
    const page = await forged.get('/ops');
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/ops/login?next=%2Fops');
    const wrong = await client.post('/ops/login/code', { code: '000000' }, '/ops/login/code');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('the code is wrong');
    const right = await client.post('/ops/login/code', { code: await totpCodeOf(credentials.totpSecret) }, '/ops/login/code');
    expect(right.statusCode).toBe(303);
    expect((await client.get('/ops')).statusCode).toBe(200);
  });

  it('refuses a wrong password and a disabled operator alike', async () => {
    const credentials = await createOperator(deps(), { email: `wrong-${engine}@payrail.example`, role: 'finance' });
    const client = opsClient(harness.app, {});
    const wrong = await client.post('/ops/login', { email: credentials.operator.email, password: 'not-the-password' }, '/ops/login');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('the e-mail address or the password is wrong');
    await harness.database.db.execute(sql`update operators set status = 'disabled' where id = ${credentials.operator.id}`);
    const disabled = await client.post('/ops/login', { email: credentials.operator.email, password: credentials.password }, '/ops/login');
    expect(disabled.statusCode).toBe(400);
  });

  it('ends the session at logout, server-side', async () => {
    const operator = await signedInOperator(harness);
    const out = await operator.post('/ops/logout', {});
    expect(out.statusCode).toBe(303);
    const replay = opsClient(harness.app, { '__Host-payrail_ops_session': operator.sessionToken });
    expect((await replay.get('/ops')).statusCode).toBe(303);
  });
});
