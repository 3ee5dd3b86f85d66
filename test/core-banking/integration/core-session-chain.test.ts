import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../../src/core-banking/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { adminCall, createPerson, signIn } from '../../support/sign-in.ts';

const engines = await testEngines();

const hoursFromNow = (iso: string) => (Date.parse(iso) - Date.now()) / 3_600_000;

// A sign-in is a chain: the session the confirmation code opened and every session login/complete issued from it.
// A derived session never outlives the one it came from, logout ends the chain, logout_all ends every chain of the
// person, and disabling a profile ends its sessions for good.
describe.each(engines)('core banking session chains on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const post = (url: string, session: string, payload?: Record<string, unknown> | string) =>
    harness.app.inject({
      method: 'POST',
      url,
      headers: { 'session-token': session, ...(typeof payload === 'string' ? { 'content-type': 'application/json' } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });
  const derive = async (session: string, timeToLive: number) => {
    const response = await post('/api/v1/auth/login/complete', session, { time_to_live: timeToLive });
    expect(response.statusCode, response.body).toBe(200);
    return response.json() as { session: string; expiration: string };
  };
  const statusOf = async (session: string) => {
    const response = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { 'session-token': session } });
    return response.statusCode === 200 ? 'live' : (response.json().errors[0].code as string);
  };

  it('never lets a derived session outlive the session it came from, however long the chain', async () => {
    const person = await createPerson(harness);
    const first = await signIn(harness, person, '198.51.100.31', 2);
    const derived = await derive(first, 720);
    expect(hoursFromNow(derived.expiration)).toBeCloseTo(2, 1);
    const again = await derive(derived.session, 720);
    expect(again.expiration).toBe(derived.expiration);
    const shorter = await derive(again.session, 1);
    expect(hoursFromNow(shorter.expiration)).toBeCloseTo(1, 1);
    expect(hoursFromNow((await derive(shorter.session, 720)).expiration)).toBeCloseTo(1, 1);
  });

  it('ends the whole chain on logout: the session, those it came from and all derived from them; other sign-ins go on', async () => {
    const person = await createPerson(harness);
    const first = await signIn(harness, person, '198.51.100.32', 24);
    const child = (await derive(first, 24)).session;
    const grandchild = (await derive(child, 24)).session;
    const sibling = (await derive(first, 24)).session;
    const otherSignIn = await signIn(harness, person, '198.51.100.32', 24);
    const otherChild = (await derive(otherSignIn, 24)).session;

    const out = await post('/api/v1/auth/logout', grandchild);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, status: 200, message: 'signed out' });
    for (const session of [first, child, grandchild, sibling]) expect(await statusOf(session)).toBe('session_revoked');
    expect(await statusOf(otherSignIn)).toBe('live');
    expect(await statusOf(otherChild)).toBe('live');
    const reuse = await post('/api/v1/auth/login/complete', child, { time_to_live: 1 });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().errors[0].code).toBe('session_revoked');
  });

  it('logout_all ends every session of the person and no one else’s', async () => {
    const person = await createPerson(harness);
    const neighbour = await createPerson(harness);
    const first = await signIn(harness, person, '198.51.100.33');
    const derived = (await derive(first, 1)).session;
    const second = await signIn(harness, person, '198.51.100.33');
    const neighbourSession = await signIn(harness, neighbour, '198.51.100.33');

    const out = await post('/api/v1/auth/logout_all', second);
    expect(out.statusCode, out.body).toBe(200);
    expect(out.json()).toEqual({ success: true, status: 200, message: 'signed out everywhere', sessions_ended: 3 });
    for (const session of [first, derived, second]) expect(await statusOf(session)).toBe('session_revoked');
    expect(await statusOf(neighbourSession)).toBe('live');

    const again = await post('/api/v1/auth/logout_all', second);
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ success: false, status: 401, errors: [{ code: 'session_revoked', kind: 'session' }] });
    expect((await post('/api/v1/auth/logout_all', '')).json()).toMatchObject({ status: 401, errors: [{ code: 'session_required' }] });
  });

  it('revokes the sessions of a disabled profile for good: enabling it again brings none back', async () => {
    const person = await createPerson(harness);
    const first = await signIn(harness, person, '198.51.100.34', 24);
    const derived = (await derive(first, 24)).session;
    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, { status: 'disabled' })).statusCode).toBe(200);
    expect(await statusOf(first)).toBe('profile_disabled');
    const live = await harness.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.userId, person.id), isNull(sessions.revokedAt)));
    expect(live).toEqual([]);

    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, { status: 'active' })).statusCode).toBe(200);
    expect(await statusOf(first)).toBe('session_revoked');
    expect(await statusOf(derived)).toBe('session_revoked');
    expect(await statusOf(await signIn(harness, person, '198.51.100.34'))).toBe('live'); // signing in anew works
  });

  it('refuses a time_to_live that is not a whole number of hours from 1 to 720 with 422, never a 500', async () => {
    const person = await createPerson(harness);
    const session = await signIn(harness, person, '198.51.100.35');
    const bodies = ['{"time_to_live":1e309}', '{"time_to_live":"1e309"}', '{"time_to_live":721}', '{"time_to_live":0}', '{"time_to_live":1.5}'];
    for (const body of bodies) {
      const response = await post('/api/v1/auth/login/complete', session, body);
      expect(response.statusCode, body).toBe(422);
      expect(response.json(), body).toMatchObject({ success: false, status: 422, errors: [{ field: 'time_to_live' }] });
    }
  });
});
