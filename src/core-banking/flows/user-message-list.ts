import { maskRecipient } from '../domain/profile-contacts.ts';
import type { Db } from '../../platform/database.ts';
import { listUserMessages, USER_MESSAGE_ATTEMPTS_MAX } from '../store/user-messages-repo.ts';

export interface ListedUserMessage {
  id: number;
  userId: number | null;
  channel: string;
  recipient: string; // masked, but for the log channel
  subject: string;
  body: string | null; // log channel only, until it expires; null otherwise
  status: 'pending' | 'sent' | 'failed' | 'expired';
  attempts: number;
  lastError: string | null;
  expiresAt: Date | null;
  sentAt: Date | null;
  createdAt: Date;
}

// The outbox of messages to people, newest first (`payrail outbox`). A log-channel message shows its recipient and,
// while it is valid, its body: that channel is the development delivery, and the service log holds the same text.
// An e-mail's body is never shown here and its address is masked: its code belongs to whoever owns the address.
export async function listOutbox(db: Db, limit: number, userId: number | null): Promise<ListedUserMessage[]> {
  const rows = await listUserMessages(db, limit, userId);
  return rows.map((row) => ({
    id: row.id,
    userId: row.userId,
    channel: row.channel,
    recipient: row.channel === 'log' ? row.recipient : maskRecipient(row.recipient),
    subject: row.subject,
    body: row.channel === 'log' && !row.expired && row.body !== '' ? row.body : null,
    status: row.sentAt !== null ? 'sent' : row.attempts >= USER_MESSAGE_ATTEMPTS_MAX ? 'failed' : row.expired ? 'expired' : 'pending',
    attempts: row.attempts,
    lastError: row.lastError,
    expiresAt: row.expiresAt,
    sentAt: row.sentAt,
    createdAt: row.createdAt,
  }));
}
