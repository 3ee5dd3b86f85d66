import Type from 'typebox';
import { answerPart, AppTokenSummary, CreatedAppToken } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface AppTokenCommandOptions {
  name?: string | undefined;
  id?: string | undefined;
  json: boolean;
}

export async function runAppTokenCommand(
  client: AdminClient,
  action: string | undefined,
  options: AppTokenCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  switch (action) {
    case 'create': {
      if (!options.name) throw new CliError('app-token create needs --name <service name>');
      const answer = await client.call('POST', '/app-tokens', { name: options.name });
      const token = answerPart(answer, 'app_token', CreatedAppToken);
      if (options.json) return print(JSON.stringify(token));
      print(`App token #${token.id} "${token.name}" created. It is shown once; send it as header app-token:`);
      return print(`  ${token.token}`);
    }
    case 'list': {
      const answer = await client.call('GET', '/app-tokens');
      const tokens = answerPart(answer, 'app_tokens', Type.Array(AppTokenSummary));
      if (options.json) return print(JSON.stringify(tokens));
      for (const token of tokens) print(describe(token));
      if (tokens.length === 0) print('no app tokens yet: payrail app-token create --name <service name>');
      return;
    }
    case 'revoke': {
      const id = Number(options.id);
      if (!Number.isSafeInteger(id) || id < 1) throw new CliError('app-token revoke needs --id <app token id>');
      const answer = await client.call('POST', `/app-tokens/${id}/revoke`);
      const token = answerPart(answer, 'app_token', AppTokenSummary);
      return print(options.json ? JSON.stringify(token) : describe(token));
    }
    default:
      throw new CliError(`unknown app-token command "${action ?? ''}": create | list | revoke`);
  }
}

function describe(token: AppTokenSummary): string {
  const state = token.revoked_at ? `revoked ${token.revoked_at}` : 'active';
  return `#${token.id}\t${state}\t${token.name}\t${token.prefix}…\tcreated ${token.created_at}\tlast used ${token.last_used_at ?? 'never'}`;
}
