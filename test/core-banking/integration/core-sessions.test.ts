import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestAppToken, openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { adminCall, createPerson, login, signIn, TEST_PASSWORD } from '../../support/sign-in.ts';

const engines = await testEngines();

const hoursFromNow = (iso: string) => (Date.parse(iso) - Date.now()) / 3_600_000;

// The session scope (header session-token, spec 5.3) through its own routes: who am I, logout, and the legacy
// sign-in POST /api/v1/auth/login/complete, which issues a further session from a live one.
describe.each(engines)('core banking sessions on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const whoAmI = (headers: Record<string, string> = {}) => harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers });
  const logout = (session: string) => harness.app.inject({ method: 'POST', url: '/api/v1/auth/logout', headers: { 'session-token': session } });
  const complete = (headers: Record<string, string>, payload: Record<string, unknown> = {}) =>
    harness.app.inject({ method: 'POST', url: '/api/v1/auth/login/complete', headers, payload });

  it('refuses every wrong credential with 401 in the spec 7.2 envelope, the HTTP status equal to status', async () => {
    const person = await createPerson(harness);
    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.20')).json().session_token as string;
    const appToken = await createTestAppToken(harness.database.db);
    const cases: [Record<string, string>, string][] = [
      [{}, 'session_required'],
      [{ 'session-token': '' }, 'session_required'],
      [{ 'session-token': appToken }, 'session_invalid'], // a token of the wrong type
      [{ 'app-token': appToken }, 'session_required'], // the right token in the wrong header
      [{ 'session-token': preSession }, 'session_invalid'], // a pre-session can only confirm
      [{ 'session-token': `ses_${'b'.repeat(43)}` }, 'session_invalid'],
      [{ 'session-token': 'Bearer nonsense' }, 'session_invalid'],
    ];
    for (const [headers, code] of cases) {
      const response = await whoAmI(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ code, kind: 'session', session: null }] });
    }
  });

  it('refuses an expired session with 401 session_expired and its expiry', async () => {
    const person = await createPerson(harness);
    const expired = await openTestSession(harness.database.db, person.id, -1000);
    const response = await whoAmI({ 'session-token': expired });
    expect(response.statusCode).toBe(401);
    expect(response.json().errors[0]).toMatchObject({ code: 'session_expired', kind: 'session', expiration: expect.any(String) });
  });

  it('signs out: the session answers 401 session_revoked from then on, other sessions of the person go on', async () => {
    const person = await createPerson(harness);
    const first = await signIn(harness, person, '198.51.100.21');
    const second = await signIn(harness, person, '198.51.100.21');
    const out = await logout(first);
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ success: true, status: 200, message: 'signed out' });
    const after = await whoAmI({ 'session-token': first });
    expect(after.statusCode).toBe(401);
    expect(after.json().errors[0].code).toBe('session_revoked');
    expect((await logout(first)).json().errors[0].code).toBe('session_revoked');
    expect((await whoAmI({ 'session-token': second })).statusCode).toBe(200);
  });

  it('stops every session of a profile the operator disables (403 profile_disabled)', async () => {
    const person = await createPerson(harness);
    const session = await signIn(harness, person, '198.51.100.22');
    await adminCall(harness, 'PATCH', `/users/${person.id}`, { status: 'disabled' });
    const response = await whoAmI({ 'session-token': session });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({ success: false, status: 403, errors: [{ code: 'profile_disabled' }] });
  });

  it('shows each person only their own session', async () => {
    const ada = await createPerson(harness);
    const bob = await createPerson(harness);
    const adaSession = await signIn(harness, ada, '198.51.100.23');
    const bobSession = await signIn(harness, bob, '198.51.100.23');
    expect((await whoAmI({ 'session-token': adaSession })).json().user_id).toBe(ada.id);
    expect((await whoAmI({ 'session-token': bobSession })).json().user_id).toBe(bob.id);
  });

  it('legacy login/complete issues a further session with time_to_live hours, from a live session only', async () => {
    const person = await createPerson(harness);
    const session = await signIn(harness, person, '198.51.100.24', 72); // a derived session never outlives it (core-session-chain.test.ts)
    const renewed = await complete({ 'session-token': session }, { time_to_live: 48 });
    expect(renewed.statusCode).toBe(200);
    const body = renewed.json();
    expect(body).toEqual({ success: true, status: 200, message: 'signed in', expiration: expect.any(String), session: expect.stringMatching(/^ses_/) });
    expect(hoursFromNow(body.expiration)).toBeCloseTo(48, 1);
    expect((await whoAmI({ 'session-token': body.session })).json().user_id).toBe(person.id);
    expect((await whoAmI({ 'session-token': session })).statusCode).toBe(200); // the presented session stays

    const byDefault = await complete({ 'session-token': session });
    expect(hoursFromNow(byDefault.json().expiration)).toBeCloseTo(1, 1);

    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.24')).json().session_token as string;
    const bypass = await complete({ 'session-token': preSession }, { time_to_live: 1 });
    expect(bypass.statusCode).toBe(401);
    expect(bypass.json().errors[0].code).toBe('session_invalid');
    expect((await complete({}, { time_to_live: 1 })).statusCode).toBe(401);
    const tooLong = await complete({ 'session-token': session }, { time_to_live: 721 });
    expect(tooLong.statusCode).toBe(422);
    expect(tooLong.json()).toMatchObject({ success: false, status: 422, errors: [{ field: 'time_to_live', kind: 'validation' }] });
  });
});
