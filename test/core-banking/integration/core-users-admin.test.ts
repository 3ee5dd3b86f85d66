import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { adminCall, createPerson, TEST_PASSWORD } from '../../support/sign-in.ts';

const engines = await testEngines();

const newPerson = (suffix: string, fields: Record<string, unknown> = {}) => ({
  email: `Ada.${suffix}@Example.COM`,
  phone: `+44 7700 9${suffix.padStart(5, '0').slice(-5)}`,
  password: TEST_PASSWORD,
  name: 'Ada',
  surname: 'Lovelace',
  current_currency: 'GBP',
  ...fields,
});

// Operators' management of core banking profiles (issue 9): people, business accounts and their members.
describe.each(engines)('core banking profiles in the admin API on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const suffix = () => String(Math.floor(Math.random() * 1e5));

  it('creates a person with e-mail and phone in their normal form, never showing the password or its hash', async () => {
    const unique = suffix();
    const response = await adminCall(harness, 'POST', '/users', newPerson(unique, { company_name: 'Analytical Engines', country: 'GB' }));
    expect(response.statusCode).toBe(200);
    const { profile } = response.json();
    expect(profile).toEqual({
      id: expect.any(Number),
      kind: 'person',
      email: `ada.${unique}@example.com`,
      phone: `+4477009${unique.padStart(5, '0')}`,
      name: 'Ada',
      surname: 'Lovelace',
      fullname: 'Ada Lovelace',
      company_name: 'Analytical Engines',
      wallet_type: 'personal',
      current_currency: 'GBP',
      country: 'GB',
      kyc_status: 'not_started',
      wallet_pin_enabled: false,
      status: 'active',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    const [stored] = (
      (await harness.database.db.execute(sql`select password_hash from users where id = ${profile.id}`)) as unknown as {
        rows: { password_hash: string }[];
      }
    ).rows;
    expect(stored?.password_hash).toMatch(/^scrypt\$ln=10,r=8,p=1\$/);
    for (const answer of [response, await adminCall(harness, 'GET', `/users/${profile.id}`), await adminCall(harness, 'GET', '/users')]) {
      expect(answer.body).not.toContain(TEST_PASSWORD);
      expect(answer.body).not.toContain('scrypt');
      expect(answer.body).not.toContain('password');
    }
  });

  it('refuses a second profile with the same e-mail (any case) or phone (any spelling): 409 naming the field', async () => {
    const unique = suffix();
    expect((await adminCall(harness, 'POST', '/users', newPerson(unique))).statusCode).toBe(200);
    const sameEmail = await adminCall(harness, 'POST', '/users', newPerson(unique, { email: `ADA.${unique}@example.com`, phone: '+4412345678' }));
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().errors).toEqual([{ code: 'already_exists', field: 'email', message: expect.any(String) }]);
    const samePhone = await adminCall(
      harness,
      'POST',
      '/users',
      newPerson(unique, { email: `other.${unique}@example.com`, phone: `+44-7700-9${unique.padStart(5, '0')}` }),
    );
    expect(samePhone.statusCode).toBe(409);
    expect(samePhone.json().errors.map((error: { field: string }) => error.field)).toEqual(['phone']);
  });

  it.each([
    [{ email: 'not-an-address' }, 'email'],
    [{ email: 'two@@example.com' }, 'email'],
    [{ phone: '07700 900123' }, 'phone'],
    [{ phone: '+12345' }, 'phone'],
    [{ password: 'too short' }, 'password'],
    [{ password: 'x'.repeat(129) }, 'password'],
    [{ current_currency: 'XYZ' }, 'current_currency'],
    [{ country: 'XX' }, 'country'],
    [{ wallet_type: 'savings' }, 'wallet_type'],
    [{ name: 'Ada\u0000' }, 'name'],
    [{ password_hash: 'scrypt$…' }, 'password_hash'],
  ])('refuses %o with 422 naming the field', async (change, field) => {
    const response = await adminCall(harness, 'POST', '/users', newPerson(suffix(), change));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.map((error: { field: string }) => error.field)).toContain(field);
  });

  it('answers only to the admin key', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Basic ${harness.adminKey}` }]) {
      const response = await harness.app.inject({ method: 'GET', url: '/api/admin/v1/users', headers });
      expect(response.statusCode).toBe(401);
    }
    const create = await harness.app.inject({ method: 'POST', url: '/api/admin/v1/users', payload: newPerson(suffix()) });
    expect(create.statusCode).toBe(401);
  });

  it('lists profiles newest first, by page and by kind, and gets one by id (404 for none)', async () => {
    const first = await createPerson(harness);
    const second = await createPerson(harness);
    const page = await adminCall(harness, 'GET', '/users?perPage=1&page=1&kind=person');
    expect(page.json()).toMatchObject({ success: true, page: 1, perPage: 1, profiles: [{ id: second.id }] });
    expect(page.json().totalCount).toBeGreaterThanOrEqual(2);
    expect((await adminCall(harness, 'GET', '/users?perPage=1&page=2&kind=person')).json().profiles[0].id).toBe(first.id);
    expect((await adminCall(harness, 'GET', '/users?perPage=501')).statusCode).toBe(422);
    expect((await adminCall(harness, 'GET', `/users/${first.id}`)).json().profile.email).toBe(first.email);
    const missing = await adminCall(harness, 'GET', '/users/99999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().errors[0].code).toBe('not_found');
  });

  it("changes a profile's status, KYC status and wallet PIN setting, nothing else", async () => {
    const person = await createPerson(harness);
    const changed = await adminCall(harness, 'PATCH', `/users/${person.id}`, { status: 'disabled', kyc_status: 'approved', wallet_pin_enabled: true });
    expect(changed.json().profile).toMatchObject({ status: 'disabled', kyc_status: 'approved', wallet_pin_enabled: true });
    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, {})).statusCode).toBe(422);
    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, { email: 'new@example.com' })).statusCode).toBe(422);
    expect((await adminCall(harness, 'PATCH', `/users/${person.id}`, { kyc_status: 'done' })).statusCode).toBe(422);
    expect((await adminCall(harness, 'PATCH', '/users/99999999', { status: 'active' })).statusCode).toBe(404);
  });

  it('creates a business account with its members, adds and removes members', async () => {
    const owner = await createPerson(harness);
    const member = await createPerson(harness);
    const created = await adminCall(harness, 'POST', '/business-accounts', {
      name: 'Engines',
      company_name: 'Analytical Engines Ltd',
      current_currency: 'EUR',
      country: 'GB',
      members: [{ user_id: owner.id, role: 'owner' }],
    });
    expect(created.statusCode).toBe(200);
    const business = created.json();
    expect(business.profile).toMatchObject({ kind: 'business', wallet_type: 'business', email: null, phone: null, company_name: 'Analytical Engines Ltd' });
    expect(business.members).toEqual([{ user_id: owner.id, role: 'owner', name: 'Grace', surname: 'Hopper', email: owner.email }]);
    const id = business.profile.id as number;

    const added = await adminCall(harness, 'POST', `/business-accounts/${id}/members`, { user_id: member.id });
    expect(added.json().members.map((entry: { user_id: number; role: string }) => [entry.user_id, entry.role])).toEqual([
      [owner.id, 'owner'],
      [member.id, 'member'],
    ]);
    expect((await adminCall(harness, 'POST', `/business-accounts/${id}/members`, { user_id: member.id })).statusCode).toBe(409);
    const removed = await adminCall(harness, 'DELETE', `/business-accounts/${id}/members/${member.id}`);
    expect(removed.json().members).toHaveLength(1);
    expect((await adminCall(harness, 'DELETE', `/business-accounts/${id}/members/${member.id}`)).statusCode).toBe(404);
    expect((await adminCall(harness, 'GET', `/business-accounts/${id}`)).json().members).toHaveLength(1);

    // a business is no member, a person is no business account
    expect((await adminCall(harness, 'POST', `/business-accounts/${id}/members`, { user_id: id })).statusCode).toBe(422);
    expect((await adminCall(harness, 'GET', `/business-accounts/${owner.id}`)).statusCode).toBe(404);
    expect((await adminCall(harness, 'POST', `/business-accounts/${owner.id}/members`, { user_id: member.id })).statusCode).toBe(404);
  });

  it('refuses a business account whose members are not people, listed twice or missing', async () => {
    const person = await createPerson(harness);
    const base = { name: 'Co', company_name: 'Co Ltd', current_currency: 'EUR' };
    const unknown = await adminCall(harness, 'POST', '/business-accounts', { ...base, members: [{ user_id: 99999999 }] });
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors[0].field).toBe('members.0.user_id');
    const twice = await adminCall(harness, 'POST', '/business-accounts', { ...base, members: [{ user_id: person.id }, { user_id: person.id }] });
    expect(twice.json().errors[0].field).toBe('members.1.user_id');
    expect((await adminCall(harness, 'POST', '/business-accounts', { ...base, members: [] })).statusCode).toBe(422);
    expect((await adminCall(harness, 'POST', '/business-accounts', { ...base, current_currency: 'ZZZ', members: [{ user_id: person.id }] })).statusCode).toBe(
      422,
    );
  });
});
