import { ApiError } from '../../platform/lib/errors.ts';
import { newToken, tokenDigest, tokenDisplayPrefix } from '../../platform/lib/core-tokens.ts';
import { insertAppToken, listAppTokens, revokeAppToken, type AppTokenRecord } from '../store/app-tokens-repo.ts';
import type { Db } from '../../platform/database.ts';

export type { AppTokenRecord };

// Tokens of internal services (header app-token, spec 5.3): shown once when created, kept as a digest and a
// display prefix; a revoked token fails at once.
export async function createAppToken(db: Db, name: string): Promise<{ record: AppTokenRecord; token: string }> {
  const token = newToken('appToken');
  const record = await insertAppToken(db, { name, tokenDigest: tokenDigest(token), tokenPrefix: tokenDisplayPrefix(token) });
  return { record, token };
}

export function listAllAppTokens(db: Db): Promise<AppTokenRecord[]> {
  return listAppTokens(db);
}

export async function revokeAppTokenById(db: Db, id: number): Promise<AppTokenRecord> {
  const record = await revokeAppToken(db, id);
  if (record === null) throw new ApiError('not_found', 404, `app token ${id} not found`);
  return record;
}
