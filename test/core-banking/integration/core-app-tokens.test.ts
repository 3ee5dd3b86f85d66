import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestSession } from '../../support/core-banking.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { adminCall, createPerson } from '../../support/sign-in.ts';

const engines = await testEngines();

// An internal endpoint of the app-token scope (spec 4); its authentication runs before anything else it does.
const INTERNAL_URL = '/api/internal/v1/bank_cards/1/show_card_data?merchant_private_key=sk_sandbox_unknown';

// App tokens (issue 9, spec 5.3): created by operators, shown once, kept as digests, header app-token.
describe.each(engines)('core banking app tokens on %s', (engine) => {
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness?.close());

  const internal = (headers: Record<string, string>) => harness.app.inject({ method: 'GET', url: INTERNAL_URL, headers });
  const create = async (name: string) => (await adminCall(harness, 'POST', '/app-tokens', { name })).json().app_token;

  it('shows a new token once, lists it by prefix only and stores only its digest', async () => {
    const created = await create('card service');
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'card service',
      prefix: created.token.slice(0, 10),
      token: expect.stringMatching(/^app_[A-Za-z0-9_-]{43}$/),
      created_at: expect.any(String),
      last_used_at: null,
      revoked_at: null,
    });
    const listed = await adminCall(harness, 'GET', '/app-tokens');
    expect(listed.body).not.toContain(created.token);
    expect(listed.json().app_tokens.find((token: { id: number }) => token.id === created.id)).toEqual({ ...created, token: undefined });
    const stored = (await harness.database.db.execute(sql`select * from app_tokens where id = ${created.id}`)) as unknown as { rows: object[] };
    expect(JSON.stringify(stored.rows)).not.toContain(created.token);
  });

  it('lets a live token through the app-token scope and records when it was used', async () => {
    const created = await create('transfers service');
    const response = await internal({ 'app-token': created.token });
    expect(response.json().errors?.[0]?.kind).not.toBe('app_token'); // past authentication: the endpoint's own answer
    const listed = (await adminCall(harness, 'GET', '/app-tokens')).json().app_tokens.find((token: { id: number }) => token.id === created.id);
    expect(listed.last_used_at).not.toBeNull();
  });

  it('refuses a missing, malformed, unknown, wrong-type or revoked token with 401 in the spec 7.2 envelope', async () => {
    const revoked = await create('retired service');
    const revokeAnswer = await adminCall(harness, 'POST', `/app-tokens/${revoked.id}/revoke`);
    expect(revokeAnswer.json().app_token.revoked_at).not.toBeNull();
    const person = await createPerson(harness);
    const session = await openTestSession(harness.database.db, person.id);
    const cases: [Record<string, string>, string][] = [
      [{}, 'app_token_required'],
      [{ 'app-token': '' }, 'app_token_required'],
      [{ 'session-token': revoked.token }, 'app_token_required'], // a token in the wrong header
      [{ 'app-token': session }, 'app_token_invalid'], // a session is not an app token
      [{ 'app-token': 'app_short' }, 'app_token_invalid'],
      [{ 'app-token': `app_${'c'.repeat(43)}` }, 'app_token_invalid'],
      [{ 'app-token': revoked.token }, 'app_token_revoked'],
    ];
    for (const [headers, code] of cases) {
      const response = await internal(headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(401);
      expect(response.json()).toEqual({
        success: false,
        status: 401,
        errors: [{ code, kind: 'app_token', expiration: null, session: null, message: expect.any(String) }],
      });
    }
  });

  it('revokes at once, keeps the first revocation time when revoked again, and 404s an unknown id', async () => {
    const created = await create('to revoke');
    const first = (await adminCall(harness, 'POST', `/app-tokens/${created.id}/revoke`)).json().app_token;
    const second = (await adminCall(harness, 'POST', `/app-tokens/${created.id}/revoke`)).json().app_token;
    expect(second.revoked_at).toBe(first.revoked_at);
    expect((await adminCall(harness, 'POST', '/app-tokens/99999999/revoke')).statusCode).toBe(404);
  });

  it('manages tokens only with the admin key, and refuses a nameless token', async () => {
    expect((await harness.app.inject({ method: 'POST', url: '/api/admin/v1/app-tokens', payload: { name: 'x' } })).statusCode).toBe(401);
    expect((await harness.app.inject({ method: 'GET', url: '/api/admin/v1/app-tokens' })).statusCode).toBe(401);
    expect((await adminCall(harness, 'POST', '/app-tokens', { name: '' })).statusCode).toBe(422);
    expect((await adminCall(harness, 'POST', '/app-tokens', {})).statusCode).toBe(422);
  });
});
