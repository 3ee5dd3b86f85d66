import Type from 'typebox';
import { answerPart, ProfileSummary } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface UserCommandOptions {
  email?: string | undefined;
  phone?: string | undefined;
  password?: string | undefined; // '-': read from standard input, kept out of the shell history and process list
  name?: string | undefined;
  surname?: string | undefined;
  company?: string | undefined;
  currency?: string | undefined;
  walletType?: string | undefined;
  country?: string | undefined;
  json: boolean;
}

export async function runUserCommand(
  client: AdminClient,
  action: string | undefined,
  options: UserCommandOptions,
  print: (line: string) => void,
  readStdin: () => Promise<string> = readAllStdin,
): Promise<void> {
  switch (action) {
    case 'create': {
      const missing = (['email', 'phone', 'password', 'name', 'surname'] as const).filter((option) => !options[option]);
      if (missing.length > 0) throw new CliError(`user create needs ${missing.map((option) => `--${option}`).join(' ')}`);
      const password = options.password === '-' ? (await readStdin()).split(/\r?\n/)[0]! : options.password!;
      const answer = await client.call('POST', '/users', {
        email: options.email,
        phone: options.phone,
        password,
        name: options.name,
        surname: options.surname,
        company_name: options.company ?? null,
        wallet_type: options.walletType ?? 'personal',
        current_currency: options.currency ?? 'EUR',
        country: options.country ?? null,
      });
      const profile = answerPart(answer, 'profile', ProfileSummary);
      if (options.json) return print(JSON.stringify(profile));
      print(`Profile #${profile.id} created: ${describe(profile)}`);
      return print(`Sign in: POST /api/v2/auth/login {"login":"${profile.email}","password":"…"}, then the code from \`payrail outbox\` or the e-mail`);
    }
    case 'list': {
      const answer = await client.call('GET', '/users?perPage=500');
      const profiles = answerPart(answer, 'profiles', Type.Array(ProfileSummary));
      if (options.json) return print(JSON.stringify(profiles));
      for (const profile of profiles) print(`#${profile.id}\t${describe(profile)}`);
      if (profiles.length === 0) print('no profiles yet: payrail user create --email … --phone … --password … --name … --surname …');
      return;
    }
    default:
      throw new CliError(`unknown user command "${action ?? ''}": create | list`);
  }
}

function describe(profile: ProfileSummary): string {
  const contact = [profile.email, profile.phone].filter(Boolean).join(' ');
  return `${profile.kind}\t${profile.status}\t${profile.fullname}\t${contact}\t${profile.wallet_type} ${profile.current_currency}\tcreated ${profile.created_at}`;
}

async function readAllStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}
