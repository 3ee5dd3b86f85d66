import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { confirm, createPerson, latestCode, login, TEST_PASSWORD } from '../../support/sign-in.ts';

const engines = await testEngines();

const WINDOW_S = 900; // PAYRAIL_SIGN_IN_WINDOW_S default: 15 minutes

// Sign-in limits on their defaults: 10 attempts per login from one address, 100 per login from all addresses
// (the ceiling), 30 per address, in 15 minutes. Wrong passwords from one place must not lock the owner out elsewhere.
describe.each(engines)('sign-in lockout on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const expectThrottled = (response: Awaited<ReturnType<typeof login>>) => {
    expect(response.statusCode, response.body).toBe(429);
    expect(response.json()).toMatchObject({ success: false, status: 429, errors: [{ code: 'too_many_sign_in_attempts', kind: 'rate_limit' }] });
    const retryAfter = Number(response.headers['retry-after']);
    expect(Number.isInteger(retryAfter)).toBe(true);
    expect(retryAfter).toBeGreaterThan(WINDOW_S - 60); // the first wrong password leaves the window in about 15 minutes
    expect(retryAfter).toBeLessThanOrEqual(WINDOW_S);
    return retryAfter;
  };

  it('has the documented defaults', () => {
    expect(harness.config.signIn).toMatchObject({ windowS: 900, pairMax: 10, accountMax: 100, ipMax: 30 });
  });

  it('stops an attacker after ten wrong passwords from one address, with Retry-After, while the owner signs in from another', async () => {
    const owner = await createPerson(harness);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 10; attempt += 1) {
      statuses.push((await login(harness, owner.email, `wrong password ${attempt}`, '192.0.2.66')).statusCode);
    }
    expect(statuses).toEqual(Array.from({ length: 10 }, () => 200));
    expectThrottled(await login(harness, owner.email, 'wrong password again', '192.0.2.66'));
    expectThrottled(await login(harness, owner.email, TEST_PASSWORD, '192.0.2.66')); // the right one too, from there

    const fromHome = await login(harness, owner.email, TEST_PASSWORD, '198.51.100.77');
    expect(fromHome.statusCode).toBe(200);
    const signedIn = await confirm(harness, fromHome.json().session_token, { confirmation_code: await latestCode(harness, owner.id) });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    expect(signedIn.json().user_id).toBe(owner.id);
  });

  it('counts the owner typing the same login differently as one login', async () => {
    const owner = await createPerson(harness);
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const typed = attempt % 2 === 0 ? owner.email.toUpperCase() : ` ${owner.email}`;
      expect((await login(harness, typed, 'wrong password', '192.0.2.67')).statusCode).toBe(200);
    }
    expectThrottled(await login(harness, owner.email, 'wrong password', '192.0.2.67'));
  });

  it('counts an IPv6 client per /64, so rotating addresses inside it gains no attempts', async () => {
    const owner = await createPerson(harness);
    for (let attempt = 1; attempt <= 10; attempt += 1) {
      expect((await login(harness, owner.email, 'wrong password', `2001:db8:7:1::${attempt.toString(16)}`)).statusCode).toBe(200);
    }
    expectThrottled(await login(harness, owner.email, 'wrong password', '2001:db8:7:1:ffff::99'));
    expect((await login(harness, owner.email, 'wrong password', '2001:db8:7:2::1')).statusCode).toBe(200); // another /64
  });

  it('still stops an attack spread over many addresses at the per-login ceiling of 100', async () => {
    const owner = await createPerson(harness);
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 100; attempt += 1) {
      // nine tries from each of a dozen addresses: under the per-address and per-pair limits every time
      const address = `198.18.1.${Math.floor(attempt / 9)}`;
      statuses.push((await login(harness, owner.email, `guess ${attempt}`, address)).statusCode);
    }
    expect(statuses.filter((status) => status !== 200)).toEqual([]);
    expectThrottled(await login(harness, owner.email, 'guess 100', '198.18.1.200'));
    expectThrottled(await login(harness, owner.email, TEST_PASSWORD, '198.51.100.78'));
  });
});
