import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { adminCall, confirm, createPerson, latestCode, login, otherCode, TEST_PASSWORD } from '../../support/sign-in.ts';

const engines = await testEngines();

const minutesFromNow = (iso: string) => (Date.parse(iso) - Date.now()) / 60_000;
const withoutVolatile = (body: string) => body.replace(/pre_[A-Za-z0-9_-]{43}/g, 'TOKEN').replace(/"expiration":"[^"]*"/g, '"expiration":"T"');

// Two-step sign-in of the core banking API (issue 9; spec 4 POST /api/v2/auth/login/confirm, spec 7.2 errors), on
// the default limits (PAYRAIL_SIGN_IN_ACCOUNT_MAX, PAYRAIL_SIGN_IN_IP_MAX); each test signs in from its own IP.
describe.each(engines)('core banking sign-in on %s', (engine) => {
  let harness: Harness;
  let idlePreSession: string; // a live pre-session that malformed confirmations leave as it was

  beforeAll(async () => {
    harness = await startHarness(engine);
    const person = await createPerson(harness);
    idlePreSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.4')).json().session_token;
  });
  afterAll(async () => harness?.close());

  const rows = async <T>(query: ReturnType<typeof sql>) => ((await harness.database.db.execute(query)) as unknown as { rows: T[] }).rows;

  it('signs in with e-mail, password and the code from the outbox, answering the fields of spec 4', async () => {
    const person = await createPerson(harness);
    const started = await login(harness, person.email.toUpperCase(), TEST_PASSWORD);
    expect(started.statusCode).toBe(200);
    const pre = started.json();
    expect(pre).toEqual({ success: true, status: 200, session_token: expect.stringMatching(/^pre_/), expiration: expect.any(String), method: 'log' });
    expect(minutesFromNow(pre.expiration)).toBeGreaterThan(4.9);
    expect(minutesFromNow(pre.expiration)).toBeLessThanOrEqual(5);

    const code = await latestCode(harness, person.id);
    const confirmed = await confirm(harness, pre.session_token, { confirmation_code: code });
    expect(confirmed.statusCode).toBe(200);
    const body = confirmed.json();
    expect(body).toEqual({
      success: true,
      status: 200,
      session_token: expect.stringMatching(/^ses_[A-Za-z0-9_-]{43}$/),
      session: expect.stringMatching(/^\d+$/),
      expiration: expect.any(String),
      wallet_type: 'personal',
      current_currency: 'EUR',
      country: 'GB',
      method: 'log',
      user_id: person.id,
    });
    expect(minutesFromNow(body.expiration)).toBeGreaterThan(59); // time_to_live defaults to 1 hour (spec 8)
    expect(minutesFromNow(body.expiration)).toBeLessThanOrEqual(60);

    const who = await harness.app.inject({ method: 'GET', url: '/api/v1/auth/session', headers: { 'session-token': body.session_token } });
    expect(who.json()).toEqual({ success: true, status: 200, session: body.session, user_id: person.id, expiration: body.expiration });
  });

  it('takes the phone number in any common spelling, time_to_live in hours and a method kept with the session', async () => {
    const person = await createPerson(harness, { phone: '+44 (20) 7946-0123' });
    const started = await login(harness, '+44 20 7946 0123', TEST_PASSWORD, '198.51.100.3');
    const code = await latestCode(harness, person.id);
    const confirmed = await confirm(harness, started.json().session_token, { confirmation_code: code, time_to_live: 24, method: 'sms' });
    expect(confirmed.statusCode).toBe(200);
    expect(minutesFromNow(confirmed.json().expiration) / 60).toBeCloseTo(24, 1);
    expect(confirmed.json().method).toBe('sms');
    const [session] = await rows<{ method: string }>(sql`select method from sessions where id = ${Number(confirmed.json().session)}`);
    expect(session?.method).toBe('sms');
  });

  it.each([
    [{ time_to_live: 0 }, 'time_to_live'],
    [{ time_to_live: 721 }, 'time_to_live'],
    [{ confirmation_code: '12345' }, 'confirmation_code'],
    [{ method: 'Not A Method!' }, 'method'],
    [{ surprise: true }, 'surprise'],
  ])('refuses %o with 422 in the spec 7.2 envelope', async (change, field) => {
    const response = await confirm(harness, idlePreSession, { confirmation_code: '000000', ...change });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ success: false, status: 422, errors: [{ kind: 'validation', expiration: null, session: null, field }] });
  });

  it('answers an unknown login and a wrong password byte for byte alike, sends no code, and fails both confirmations alike', async () => {
    const person = await createPerson(harness);
    const unknown = await login(harness, 'nobody-here@example.com', TEST_PASSWORD, '198.51.100.5');
    const wrongPassword = await login(harness, person.email, 'not the password at all', '198.51.100.5');
    expect(unknown.statusCode).toBe(200);
    expect(wrongPassword.statusCode).toBe(200);
    expect(withoutVolatile(unknown.body)).toBe(withoutVolatile(wrongPassword.body));
    expect(Object.keys(unknown.headers).sort()).toEqual(Object.keys(wrongPassword.headers).sort());
    const messages = await adminCall(harness, 'GET', `/user-messages?user_id=${person.id}`);
    expect(messages.json().messages).toEqual([]);

    const afterUnknown = await confirm(harness, unknown.json().session_token, { confirmation_code: '123456' });
    const afterWrongPassword = await confirm(harness, wrongPassword.json().session_token, { confirmation_code: '123456' });
    expect(afterUnknown.statusCode).toBe(401);
    expect(withoutVolatile(afterUnknown.body)).toBe(withoutVolatile(afterWrongPassword.body));
    expect(afterUnknown.json()).toMatchObject({
      success: false,
      status: 401,
      errors: [{ code: 'confirmation_code_invalid', kind: 'pre_session', session: null, attempts_left: 4 }],
    });
  });

  it('sends no code to a disabled profile, whose confirmation fails like a wrong code', async () => {
    const person = await createPerson(harness);
    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, { status: 'disabled' })).statusCode).toBe(200);
    const started = await login(harness, person.email, TEST_PASSWORD, '198.51.100.6');
    expect(started.statusCode).toBe(200);
    expect((await adminCall(harness, 'GET', `/user-messages?user_id=${person.id}`)).json().messages).toEqual([]);
    const refused = await confirm(harness, started.json().session_token, { confirmation_code: '123456' });
    expect(refused.json().errors[0].code).toBe('confirmation_code_invalid');
  });

  it('takes five wrong codes and then refuses even the right one', async () => {
    const person = await createPerson(harness);
    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.7')).json().session_token as string;
    const code = await latestCode(harness, person.id);
    for (let attempt = 1; attempt <= 5; attempt += 1) {
      const wrong = await confirm(harness, preSession, { confirmation_code: otherCode(code) });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.json().errors[0]).toMatchObject({ code: 'confirmation_code_invalid', attempts_left: 5 - attempt });
    }
    const sixth = await confirm(harness, preSession, { confirmation_code: code });
    expect(sixth.statusCode).toBe(401);
    expect(sixth.json().errors[0].code).toBe('too_many_wrong_codes');
    expect(await rows(sql`select id from sessions where user_id = ${person.id}`)).toEqual([]);
  });

  it('opens one session per pre-session: a second confirmation is refused', async () => {
    const person = await createPerson(harness);
    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.8')).json().session_token as string;
    const code = await latestCode(harness, person.id);
    expect((await confirm(harness, preSession, { confirmation_code: code })).statusCode).toBe(200);
    const again = await confirm(harness, preSession, { confirmation_code: code });
    expect(again.statusCode).toBe(401);
    expect(again.json().errors[0].code).toBe('pre_session_used');
  });

  it('refuses an expired code, telling when it expired', async () => {
    const person = await createPerson(harness);
    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.9')).json().session_token as string;
    const code = await latestCode(harness, person.id);
    await harness.database.db.execute(sql`update login_challenges set expires_at = now() - interval '1 second' where user_id = ${person.id}`);
    const late = await confirm(harness, preSession, { confirmation_code: code });
    expect(late.statusCode).toBe(401);
    expect(late.json().errors[0]).toMatchObject({ code: 'confirmation_code_expired', kind: 'pre_session', expiration: expect.any(String) });
    expect(Date.parse(late.json().errors[0].expiration)).toBeLessThan(Date.now());
  });

  it('lets the person call the sign-in off with confirmed: false; the code no longer works', async () => {
    const person = await createPerson(harness);
    const preSession = (await login(harness, person.email, TEST_PASSWORD, '198.51.100.10')).json().session_token as string;
    const code = await latestCode(harness, person.id);
    const cancelled = await confirm(harness, preSession, { confirmation_code: code, confirmed: false });
    expect(cancelled.statusCode).toBe(401);
    expect(cancelled.json().errors[0].code).toBe('sign_in_cancelled');
    expect((await confirm(harness, preSession, { confirmation_code: code })).json().errors[0].code).toBe('pre_session_used');
  });

  it('confirms only with a pre-session token in header session-token', async () => {
    const person = await createPerson(harness);
    await login(harness, person.email, TEST_PASSWORD, '198.51.100.11');
    const code = await latestCode(harness, person.id);
    const appToken = (await adminCall(harness, 'POST', '/app-tokens', { name: 'confirm header test' })).json().app_token.token as string;
    const cases: [string | undefined, string][] = [
      [undefined, 'session_required'],
      ['', 'session_required'],
      [appToken, 'session_invalid'], // a token of the wrong type
      [`ses_${'a'.repeat(43)}`, 'session_invalid'], // a session cannot confirm
      [`pre_${'a'.repeat(43)}`, 'session_invalid'], // well-formed, unknown
      ['pre_short', 'session_invalid'],
    ];
    for (const [header, code_] of cases) {
      const response = await confirm(harness, header, { confirmation_code: code });
      expect(response.statusCode, String(header)).toBe(401);
      expect(response.json()).toMatchObject({ success: false, status: 401, errors: [{ code: code_, kind: 'pre_session' }] });
    }
  });

  it('never answers 5xx to arbitrary logins, passwords and confirmation bodies', async () => {
    let run = 0;
    const text = fc.string({ unit: 'binary', maxLength: 40 });
    await fc.assert(
      fc.asyncProperty(text, text, fc.jsonValue(), async (loginText, password, confirmBody) => {
        run += 1;
        const started = await login(harness, loginText, password || 'x', `10.9.${run >> 8}.${run & 255}`);
        expect([200, 422, 429], started.body).toContain(started.statusCode);
        const preSession = started.statusCode === 200 ? started.json().session_token : idlePreSession;
        const confirmed = await harness.app.inject({
          method: 'POST',
          url: '/api/v2/auth/login/confirm',
          headers: { 'session-token': preSession, 'content-type': 'application/json' },
          payload: JSON.stringify(confirmBody),
        });
        expect(confirmed.statusCode, confirmed.body).toBeLessThan(500);
        expect(confirmed.json()).toMatchObject({ success: false, status: confirmed.statusCode });
      }),
      { numRuns: 40 },
    );
  });

  // Brute force: attempts are counted per login as typed (known or not) and per client IP, in a window
  // (core-sign-in-lockout.test.ts: the per login and IP limit that comes first).
  it('limits attempts per login from all IPs by its ceiling, the same for a known and an unknown login', async () => {
    const { accountMax } = harness.config.signIn;
    const person = await createPerson(harness);
    const statuses: Record<'known' | 'unknown', number[]> = { known: [], unknown: [] };
    const bodies: Record<'known' | 'unknown', string> = { known: '', unknown: '' };
    for (let attempt = 0; attempt <= accountMax; attempt += 1) {
      const ip = `198.18.${attempt >> 8}.${attempt & 255}`; // a new IP each time: the per-login ceiling alone applies
      const known = await login(harness, person.email, 'wrong password attempt', ip);
      const unknown = await login(harness, 'nobody.limited@example.com', 'wrong password attempt', ip);
      statuses.known.push(known.statusCode);
      statuses.unknown.push(unknown.statusCode);
      bodies.known = known.body;
      bodies.unknown = unknown.body;
    }
    const expected = [...Array.from({ length: accountMax }, () => 200), 429];
    expect(statuses).toEqual({ known: expected, unknown: expected });
    expect(bodies.known).toBe(bodies.unknown);
    expect(JSON.parse(bodies.known)).toEqual({
      success: false,
      status: 429,
      errors: [{ code: 'too_many_sign_in_attempts', kind: 'rate_limit', expiration: null, session: null, message: expect.any(String) }],
    });
    expect((await login(harness, person.email, TEST_PASSWORD, '203.0.113.99')).statusCode).toBe(429); // the right password too
  });

  it('limits attempts per client IP across logins, leaving other IPs alone', async () => {
    const { ipMax } = harness.config.signIn;
    const statuses: number[] = [];
    for (let attempt = 0; attempt <= ipMax; attempt += 1) {
      statuses.push((await login(harness, `someone${attempt}@example.com`, 'wrong password attempt', '203.0.113.50')).statusCode);
    }
    expect(statuses).toEqual([...Array.from({ length: ipMax }, () => 200), 429]);
    const person = await createPerson(harness);
    expect((await login(harness, person.email, TEST_PASSWORD, '203.0.113.50')).statusCode).toBe(429);
    const elsewhere = await login(harness, person.email, TEST_PASSWORD, '203.0.113.51');
    const code = await latestCode(harness, person.id);
    expect((await confirm(harness, elsewhere.json().session_token, { confirmation_code: code })).statusCode).toBe(200);
  });

  it('counts concurrent attempts exactly: a burst gets no more than the limit through', async () => {
    const { accountMax } = harness.config.signIn;
    const burst = await Promise.all(
      Array.from({ length: accountMax + 4 }, (_, index) => login(harness, 'burst@example.com', 'wrong password attempt', `203.0.113.${100 + index}`)),
    );
    const statuses = burst.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(accountMax);
    expect(statuses.filter((status) => status === 429)).toHaveLength(4);
  });

  it('keeps only an HMAC of the code, bound to its pre-session', async () => {
    const person = await createPerson(harness);
    await login(harness, person.email, TEST_PASSWORD, '198.51.100.12');
    const code = await latestCode(harness, person.id);
    const [challenge] = await rows<{ code_digest: string; token_digest: string }>(
      sql`select code_digest, token_digest from login_challenges where user_id = ${person.id}`,
    );
    expect(challenge?.code_digest).toMatch(/^[0-9a-f]{64}$/);
    expect(challenge?.code_digest).not.toContain(code);
    expect(JSON.stringify(challenge)).not.toContain(code);
  });
});
