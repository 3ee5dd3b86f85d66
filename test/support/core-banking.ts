import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { newToken, tokenDigest, tokenDisplayPrefix } from '../../src/platform/lib/core-tokens.ts';
import { insertAppToken } from '../../src/core-banking/store/app-tokens-repo.ts';
import type { Db } from '../../src/platform/database.ts';
import { users, userMemberships } from '../../src/core-banking/store/schema.ts';
import { insertSession } from '../../src/core-banking/store/sessions-repo.ts';

// Core banking fixtures written straight into the real database, so a test of one endpoint needs no other
// endpoint: a profile, a business account, a live session, an app token. Sign-in itself is tested through its API.

let sequence = 0;

export interface TestProfile {
  id: number;
  email: string;
  phone: string;
}

export async function createTestProfile(db: Db, fields: Partial<typeof users.$inferInsert> = {}): Promise<TestProfile> {
  sequence += 1;
  const unique = `${process.pid}${sequence}${Math.floor(Math.random() * 1e6)}`;
  const [row] = await db
    .insert(users)
    .values({
      email: `person${unique}@example.com`,
      phone: `+44${unique.slice(-10).padStart(10, '7')}`,
      name: 'Ada',
      surname: 'Lovelace',
      currentCurrency: 'EUR',
      country: 'GB',
      passwordHash: 'not-a-password-hash: this fixture signs in through openTestSession',
      ...fields,
    })
    .returning({ id: users.id, email: users.email, phone: users.phone });
  if (!row) throw new Error('profile insert returned nothing');
  return { id: row.id, email: row.email ?? '', phone: row.phone ?? '' };
}

export async function createTestBusiness(db: Db, members: { id: number; role?: 'owner' | 'member' }[], name = 'Analytical Engines Ltd'): Promise<number> {
  const [row] = await db
    .insert(users)
    .values({ kind: 'business', name, companyName: name, walletType: 'business', currentCurrency: 'EUR', country: 'GB', email: null, phone: null })
    .returning({ id: users.id });
  if (!row) throw new Error('business insert returned nothing');
  for (const member of members) await db.insert(userMemberships).values({ businessId: row.id, memberId: member.id, role: member.role ?? 'member' });
  return row.id;
}

// A live session of the profile; returns the session-token header's value.
export async function openTestSession(db: Db, userId: number, ttlMs = 3_600_000): Promise<string> {
  const token = newToken('session');
  await insertSession(db, { tokenDigest: tokenDigest(token), userId, method: null, expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

export async function createTestAppToken(db: Db, name = 'test service'): Promise<string> {
  const token = newToken('appToken');
  await insertAppToken(db, { name, tokenDigest: tokenDigest(token), tokenPrefix: tokenDisplayPrefix(token) });
  return token;
}

// A core banking call through the real app: `session` sets header session-token, `appToken` header app-token.
export function coreRequest(app: FastifyInstance, options: InjectOptions & { session?: string; appToken?: string }): Promise<LightMyRequestResponse> {
  const { session, appToken, ...rest } = options;
  const headers: Record<string, string> = {};
  if (session !== undefined) headers['session-token'] = session;
  if (appToken !== undefined) headers['app-token'] = appToken;
  return app.inject({ ...rest, headers: { ...headers, ...(rest.headers as Record<string, string> | undefined) } });
}
