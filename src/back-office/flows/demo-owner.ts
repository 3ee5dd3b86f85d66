import type { Db } from '../../platform/database.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import { insertMember } from '../store/members-repo.ts';

// The embedded start's demo merchant gets an owner who can sign in to the dashboard at once (development only:
// the start prints the password, as it prints the demo core banking person's).
export const DEMO_OWNER = { email: 'demo@payrail.local', password: 'payrail-demo-owner' } as const;

export async function addDemoOwner(db: Db, merchantId: number, scryptLogN: number): Promise<void> {
  await insertMember(db, { merchantId, email: DEMO_OWNER.email, passwordHash: await hashPassword(DEMO_OWNER.password, scryptLogN), role: 'owner' });
}
