import Type from 'typebox';
import { answerPart, ListedMessage } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface OutboxCommandOptions {
  limit?: string | undefined;
  json: boolean;
}

// `payrail outbox`: messages to people, newest first. Log-channel messages (no SMTP configured) show their text
// while the code in it is valid, so a developer can sign in without reading the service log.
export async function runOutboxCommand(client: AdminClient, options: OutboxCommandOptions, print: (line: string) => void): Promise<void> {
  const limit = options.limit === undefined ? 20 : Number(options.limit);
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > 500) throw new CliError('--limit must be a whole number from 1 to 500');
  const answer = await client.call('GET', `/user-messages?limit=${limit}`);
  const messages = answerPart(answer, 'messages', Type.Array(ListedMessage));
  if (options.json) return print(JSON.stringify(messages));
  for (const message of messages) {
    const error = message.last_error ? `\t(${message.last_error})` : '';
    print(`#${message.id}\t${message.created_at}\t${message.channel}\t${message.status}\t${message.recipient}\t${message.subject}${error}`);
    if (message.body !== null) for (const line of message.body.split('\n')) print(`    ${line}`);
  }
  if (messages.length === 0) print('no messages yet: they appear when someone signs in (POST /api/v2/auth/login)');
}
