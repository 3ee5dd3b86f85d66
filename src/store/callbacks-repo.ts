import { eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { providerCallbacks } from './schema.ts';

// Returns false when this exact callback was seen before.
export async function rememberProviderCallback(db: Db, jwtDigest: string, paymentId: number, status: string): Promise<boolean> {
  const inserted = await db.insert(providerCallbacks).values({ jwtDigest, paymentId, status }).onConflictDoNothing().returning({ jwtDigest: providerCallbacks.jwtDigest });
  return inserted.length === 1;
}

export async function forgetProviderCallback(db: Db, jwtDigest: string): Promise<void> {
  await db.delete(providerCallbacks).where(eq(providerCallbacks.jwtDigest, jwtDigest));
}
