import type { AdminClient } from './admin-client.ts';
import { runAppTokenCommand, type AppTokenCommandOptions } from './app-token-commands.ts';
import { runOutboxCommand, type OutboxCommandOptions } from './outbox-commands.ts';
import { runUserCommand, type UserCommandOptions } from './user-commands.ts';

// The operator commands of the core banking API: profiles, app tokens and the outbox of messages to people.
export async function runCoreBankingCommand(
  client: AdminClient,
  command: string,
  action: string | undefined,
  options: UserCommandOptions & AppTokenCommandOptions & OutboxCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  if (command === 'user') return runUserCommand(client, action, options, print);
  if (command === 'app-token') return runAppTokenCommand(client, action, options, print);
  return runOutboxCommand(client, options, print);
}
