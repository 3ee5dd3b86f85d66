import { and, asc, count, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { profileFiles } from './schema.ts';

// A profile's KYC documents. The files themselves live in the profile files folder under their stored names; a
// deleted document keeps its row (who uploaded what, when, its hash) and loses its bytes.

export type ProfileFileRow = typeof profileFiles.$inferSelect;
export type NewProfileFile = Pick<typeof profileFiles.$inferInsert, 'profileId' | 'kind' | 'fileName' | 'contentType' | 'storedName' | 'sizeBytes' | 'sha256'>;

const live = (profileId: number) => and(eq(profileFiles.profileId, profileId), isNull(profileFiles.deletedAt));

export async function countLiveProfileFiles(tx: DbOrTx, profileId: number, kind: string): Promise<number> {
  const [row] = await tx
    .select({ total: count() })
    .from(profileFiles)
    .where(and(live(profileId), eq(profileFiles.kind, kind)));
  return Number(row?.total ?? 0);
}

export async function insertProfileFile(tx: Tx, file: NewProfileFile): Promise<ProfileFileRow> {
  const [row] = await tx.insert(profileFiles).values(file).returning();
  if (!row) throw new Error('profile file insert returned nothing');
  return row;
}

// The live files of the profile, by kind and then upload order: a file's index is its place within its kind.
export async function liveProfileFiles(db: DbOrTx, profileId: number, kind?: string): Promise<ProfileFileRow[]> {
  const condition = kind === undefined ? live(profileId) : and(live(profileId), eq(profileFiles.kind, kind));
  return db.select().from(profileFiles).where(condition).orderBy(asc(profileFiles.kind), asc(profileFiles.id));
}

// Marks a live file deleted; null when it was deleted meanwhile.
export async function markProfileFileDeleted(tx: DbOrTx, fileId: number): Promise<ProfileFileRow | null> {
  const [row] = await tx
    .update(profileFiles)
    .set({ deletedAt: sql`now()` })
    .where(and(eq(profileFiles.id, fileId), isNull(profileFiles.deletedAt)))
    .returning();
  return row ?? null;
}
