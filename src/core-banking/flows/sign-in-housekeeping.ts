import type { Db } from '../../platform/database.ts';
import { deleteStaleChallenges } from '../store/login-challenges-repo.ts';
import { deleteEndedSessions } from '../store/sessions-repo.ts';

// Sign-in leaves a row per attempt and per session: one bounded batch of each that no longer counts is deleted.
export async function deleteEndedSignInRecords(db: Db, before: { challenges: Date; sessions: Date }, batchSizeMax: number): Promise<void> {
  await deleteStaleChallenges(db, before.challenges, batchSizeMax);
  await deleteEndedSessions(db, before.sessions, batchSizeMax);
}
