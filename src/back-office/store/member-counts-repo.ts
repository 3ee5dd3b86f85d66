import { count, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { dashboardMembers } from './schema.ts';

// How many people sign in to a merchant's dashboard (the operator console's merchant page).
export async function countMembersOf(db: DbOrTx, merchantId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(dashboardMembers).where(eq(dashboardMembers.merchantId, merchantId));
  return row?.total ?? 0;
}
