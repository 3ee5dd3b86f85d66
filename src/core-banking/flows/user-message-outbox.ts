import type { Db, DbOrTx } from '../../platform/database.ts';
import {
  blankExpiredUserMessages,
  claimDueUserMessages,
  insertUserMessage,
  markUserMessageFailed,
  markUserMessageSent,
  type ClaimedUserMessage,
  type NewUserMessage,
} from '../store/user-messages-repo.ts';

export { USER_MESSAGE_ATTEMPTS_MAX, type ClaimedUserMessage } from '../store/user-messages-repo.ts';

// Messages to people (sign-in codes) as the notifier sees them: claimed under a lease, then marked sent or failed.

// Expired messages lose their body first, so a code never outlives its use; then the due ones are leased.
export async function claimUserMessages(db: Db, batchSizeMax: number, leaseMs: number): Promise<ClaimedUserMessage[]> {
  await blankExpiredUserMessages(db);
  return claimDueUserMessages(db, batchSizeMax, leaseMs);
}

// keepBody: a message written to the log keeps its text for the user-message list (development delivery).
export async function recordUserMessageSent(db: Db, messageId: number, keepBody: boolean): Promise<void> {
  await markUserMessageSent(db, messageId, keepBody);
}

// retryAt null: given up.
export async function recordUserMessageFailed(db: Db, messageId: number, reason: string, retryAt: Date | null): Promise<void> {
  await markUserMessageFailed(db, messageId, reason, retryAt);
}

// A message to a person outside core banking's own users (the dashboard's e-mailed links and codes), written in
// the caller's transaction and delivered by the same worker as the sign-in codes.
export async function queueUserMessage(tx: DbOrTx, message: Omit<NewUserMessage, 'userId'>): Promise<void> {
  await insertUserMessage(tx, { ...message, userId: null });
}
