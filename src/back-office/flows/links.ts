import { queueUserMessage } from '../../core-banking/index.ts';
import type { DbOrTx } from '../../platform/database.ts';
import { randomBase64Url, sha256Hex } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { countRecentLinks, insertLink, type NewLink } from '../store/links-repo.ts';
import type { DashboardDeps } from './dashboard-deps.ts';

const LINK_TOKEN_BYTES = 32; // 256 bits: its SHA-256 is stored, and no one can guess a token from it
const LINKS_PER_ADDRESS_HOUR_MAX = 5;

// A token as the browser carries it, and the digest the row keeps.
export function linkTokenDigest(token: string): string {
  return sha256Hex(`dashboard link\n${token}`);
}

export interface LinkMessage {
  subject: string;
  lines: (url: string) => string;
}

// Writes the link and its message in the caller's transaction; the message goes out by the delivery channel
// (log + `payrail outbox`, or SMTP). The URL opens a page whose button spends the token (a mail scanner that
// follows links spends nothing).
export async function sendLink(tx: DbOrTx, deps: DashboardDeps, link: Omit<NewLink, 'tokenDigest'>, path: string, message: LinkMessage): Promise<void> {
  if ((await countRecentLinks(tx, link.email, new Date(Date.now() - 3_600_000))) >= LINKS_PER_ADDRESS_HOUR_MAX) {
    throw new ApiError('rate_limited', 429, 'too many e-mails to this address in the last hour: try again later');
  }
  const token = randomBase64Url(LINK_TOKEN_BYTES);
  await insertLink(tx, { ...link, tokenDigest: linkTokenDigest(token) });
  const url = `${deps.publicUrl}${path}?token=${token}`; // the request log drops a `token` parameter's value
  await queueUserMessage(tx, {
    channel: deps.messageChannel,
    recipient: link.email,
    subject: message.subject,
    body: message.lines(url),
    expiresAt: link.expiresAt,
  });
}

// A message with no link (a sign-in code, a notice).
export async function sendNotice(
  tx: DbOrTx,
  deps: DashboardDeps,
  message: { recipient: string; subject: string; body: string; expiresAt: Date },
): Promise<void> {
  await queueUserMessage(tx, { channel: deps.messageChannel, ...message });
}
