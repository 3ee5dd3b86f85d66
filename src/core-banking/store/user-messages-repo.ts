import { and, desc, eq, inArray, isNull, lte, ne, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/database.ts';
import { userMessages } from './schema.ts';

// Messages to people (sign-in codes), written in the transaction that causes them and delivered by the worker
// (workers/user-messages.ts). A code must not linger: an e-mail's body is blanked once sent, every body once the
// message expires. A log-channel body stays until then, since the service log holds it anyway (`payrail outbox`).

export type UserMessageRow = typeof userMessages.$inferSelect;
export type NewUserMessage = Pick<typeof userMessages.$inferInsert, 'userId' | 'channel' | 'recipient' | 'subject' | 'body' | 'expiresAt'>;
export type ClaimedUserMessage = Pick<UserMessageRow, 'id' | 'channel' | 'recipient' | 'subject' | 'body' | 'attempts'>;

export const USER_MESSAGE_ATTEMPTS_MAX = 5;

export async function insertUserMessage(db: DbOrTx, message: NewUserMessage): Promise<number> {
  const [row] = await db.insert(userMessages).values(message).returning({ id: userMessages.id });
  if (!row) throw new Error('user message insert returned nothing');
  return row.id;
}

// Due messages, leased to this worker; any number of workers may claim side by side.
export async function claimDueUserMessages(db: DbOrTx, batchSizeMax: number, leaseMs: number): Promise<ClaimedUserMessage[]> {
  const due = db
    .select({ id: userMessages.id })
    .from(userMessages)
    .where(
      and(
        isNull(userMessages.sentAt),
        ne(userMessages.body, ''),
        sql`${userMessages.attempts} < ${USER_MESSAGE_ATTEMPTS_MAX}`,
        or(isNull(userMessages.expiresAt), sql`${userMessages.expiresAt} > now()`),
        or(isNull(userMessages.lockedUntil), lte(userMessages.lockedUntil, sql`now()`)),
      ),
    )
    .orderBy(userMessages.createdAt)
    .limit(batchSizeMax)
    .for('update', { skipLocked: true });
  return db
    .update(userMessages)
    .set({ lockedUntil: sql`now() + ${`${leaseMs} milliseconds`}::interval`, attempts: sql`${userMessages.attempts} + 1` })
    .where(inArray(userMessages.id, due))
    .returning({
      id: userMessages.id,
      channel: userMessages.channel,
      recipient: userMessages.recipient,
      subject: userMessages.subject,
      body: userMessages.body,
      attempts: userMessages.attempts,
    });
}

export async function markUserMessageSent(db: DbOrTx, id: number, keepBody: boolean): Promise<void> {
  await db
    .update(userMessages)
    .set({ sentAt: sql`now()`, lockedUntil: null, lastError: null, ...(keepBody ? {} : { body: '' }) })
    .where(eq(userMessages.id, id));
}

// retryAt null: no attempt is left, the message is given up and its body blanked.
export async function markUserMessageFailed(db: DbOrTx, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(userMessages)
    .set(retryAt === null ? { lockedUntil: null, lastError: `gave up: ${error}`, body: '' } : { lockedUntil: retryAt, lastError: error })
    .where(eq(userMessages.id, id));
}

export async function blankExpiredUserMessages(db: DbOrTx): Promise<number> {
  const rows = await db
    .update(userMessages)
    .set({ body: '' })
    .where(and(ne(userMessages.body, ''), lte(userMessages.expiresAt, sql`now()`)))
    .returning({ id: userMessages.id });
  return rows.length;
}

export async function listUserMessages(db: DbOrTx, limit: number, userId: number | null): Promise<(UserMessageRow & { expired: boolean })[]> {
  return db
    .select({
      id: userMessages.id,
      userId: userMessages.userId,
      channel: userMessages.channel,
      recipient: userMessages.recipient,
      subject: userMessages.subject,
      body: userMessages.body,
      expiresAt: userMessages.expiresAt,
      attempts: userMessages.attempts,
      lockedUntil: userMessages.lockedUntil,
      sentAt: userMessages.sentAt,
      lastError: userMessages.lastError,
      createdAt: userMessages.createdAt,
      expired: sql<boolean>`coalesce(${userMessages.expiresAt} <= now(), false)`,
    })
    .from(userMessages)
    .where(userId === null ? undefined : eq(userMessages.userId, userId))
    .orderBy(desc(userMessages.id))
    .limit(limit);
}
