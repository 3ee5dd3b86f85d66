import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../app-context.ts';
import {
  claimUserMessages,
  recordUserMessageFailed,
  recordUserMessageSent,
  USER_MESSAGE_ATTEMPTS_MAX,
  type ClaimedUserMessage,
} from '../core-banking/index.ts';
import { sendMail } from './mail-transport.ts';

const USER_MESSAGE_BATCH_MAX = 20;
const USER_MESSAGE_LEASE_MS = 60_000; // longer than one SMTP delivery can take
const USER_MESSAGE_RETRY_BASE_MS = 5_000; // 5 s, 10 s, 20 s, 40 s: a code lives 5 minutes

// The notifier of messages to people (sign-in codes): channel log writes the message to the service log (the
// development delivery: the code is readable there on purpose), channel email sends it through SMTP. Expired
// messages lose their body first, so a code never outlives its use. True when a full batch suggests more is due.
// A failing database costs this pass only: the worker's other duties go on.
export async function deliverUserMessages(context: Pick<AppContext, 'config' | 'database'>, log: FastifyBaseLogger): Promise<boolean> {
  try {
    return await deliverDue(context, log);
  } catch (error) {
    log.error({ err: error }, 'user message delivery failed');
    return false;
  }
}

async function deliverDue(context: Pick<AppContext, 'config' | 'database'>, log: FastifyBaseLogger): Promise<boolean> {
  const db = context.database.db;
  const batch = await claimUserMessages(db, USER_MESSAGE_BATCH_MAX, USER_MESSAGE_LEASE_MS);
  await Promise.all(
    batch.map(async (message) => {
      try {
        await deliver(context, message, log);
        await recordUserMessageSent(db, message.id, message.channel === 'log');
      } catch (error) {
        const reason = describeFailure(error);
        const retryAt = message.attempts >= USER_MESSAGE_ATTEMPTS_MAX ? null : new Date(Date.now() + USER_MESSAGE_RETRY_BASE_MS * 2 ** (message.attempts - 1));
        log.warn({ userMessageId: message.id, channel: message.channel, attempt: message.attempts, reason }, 'user message not delivered');
        await recordUserMessageFailed(db, message.id, reason, retryAt).catch(() => {}); // the lease lapses and the row is claimed again
      }
    }),
  );
  return batch.length === USER_MESSAGE_BATCH_MAX;
}

async function deliver(context: Pick<AppContext, 'config'>, message: ClaimedUserMessage, log: FastifyBaseLogger): Promise<void> {
  if (message.channel === 'log') {
    log.info(
      { userMessageId: message.id, channel: 'log', recipient: message.recipient, subject: message.subject, text: message.body },
      'user message written to the log (channel log: no SMTP configured)',
    );
    return;
  }
  const smtp = context.config.smtp;
  if (smtp === null) throw new Error('no SMTP server is configured (PAYRAIL_SMTP_URL)');
  await sendMail(smtp, { to: message.recipient, subject: message.subject, text: message.body });
}

// What is kept of a failure: the SMTP answer's code and first line, never a stack.
function describeFailure(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.split('\n')[0]!.slice(0, 200);
}
