import type { Db } from '../../platform/database.ts';
import { findActiveMembership } from '../store/profiles-repo.ts';
import { forbidden } from '../domain/core-refusals.ts';

// Which profile a signed-in person acts as (spec 4: segregated_account_id): their own, or a business
// (segregated) account they are a member of. Any other id, existing or not, is refused alike: the answer never
// tells whether a business account exists.
export async function resolveActingProfile(db: Db, userId: number, segregatedAccountId: number | undefined): Promise<number> {
  if (segregatedAccountId === undefined || segregatedAccountId === userId) return userId;
  if ((await findActiveMembership(db, segregatedAccountId, userId)) === null) {
    throw forbidden('segregated_account', 'segregated_account_id', 'this is not a business account you may act on');
  }
  return segregatedAccountId;
}

// A profile a listing names (profile_id): the one acted as, or another the person may act on.
export async function resolveListedProfile(db: Db, userId: number, actingProfileId: number, profileId: number | undefined): Promise<number> {
  if (profileId === undefined || profileId === actingProfileId || profileId === userId) return profileId ?? actingProfileId;
  if ((await findActiveMembership(db, profileId, userId)) === null) throw forbidden('profile', 'profile_id', 'this is not a profile you may see');
  return profileId;
}
