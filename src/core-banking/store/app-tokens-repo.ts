import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { appTokens } from './schema.ts';

export interface AppTokenRecord {
  id: number;
  name: string;
  tokenPrefix: string;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
  createdAt: Date;
}

const columns = {
  id: appTokens.id,
  name: appTokens.name,
  tokenPrefix: appTokens.tokenPrefix,
  lastUsedAt: appTokens.lastUsedAt,
  revokedAt: appTokens.revokedAt,
  createdAt: appTokens.createdAt,
};

export async function findAppTokenByDigest(db: DbOrTx, tokenDigest: string): Promise<AppTokenRecord | null> {
  const [row] = await db.select(columns).from(appTokens).where(eq(appTokens.tokenDigest, tokenDigest)).limit(1);
  return row ?? null;
}

export async function insertAppToken(db: DbOrTx, token: { name: string; tokenDigest: string; tokenPrefix: string }): Promise<AppTokenRecord> {
  const [row] = await db.insert(appTokens).values(token).returning(columns);
  if (!row) throw new Error('app token insert returned nothing');
  return row;
}

export async function listAppTokens(db: DbOrTx): Promise<AppTokenRecord[]> {
  return db.select(columns).from(appTokens).orderBy(desc(appTokens.id)).limit(1000);
}

export async function revokeAppToken(db: DbOrTx, id: number): Promise<AppTokenRecord | null> {
  const [row] = await db
    .update(appTokens)
    .set({ revokedAt: sql`coalesce(${appTokens.revokedAt}, now())` })
    .where(eq(appTokens.id, id))
    .returning(columns);
  return row ?? null;
}

// At most once a minute per token: a busy service's every request would otherwise write this row.
export async function touchAppToken(db: DbOrTx, id: number): Promise<void> {
  await db
    .update(appTokens)
    .set({ lastUsedAt: sql`now()` })
    .where(sql`${appTokens.id} = ${id} and (${appTokens.lastUsedAt} is null or ${appTokens.lastUsedAt} < now() - interval '1 minute')`);
}
