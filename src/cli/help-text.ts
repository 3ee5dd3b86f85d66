import { EXIT_CODES_TEXT } from './cli-error.ts';
import { ADMIN_OPTIONS, COMMANDS, hasActions, type ActionSpec, type CommandSpec } from './command-specs.ts';

const SERVER_TEXT = `Admin commands (merchant, gateway, dispute, conflicts, reconcile, stats, user, app-token, outbox) reach the running server at
--url URL, else PAYRAIL_PUBLIC_URL, else the URL \`payrail start\` wrote into the data folder (server.json in
PAYRAIL_DATA_DIR, default ./data), else https://localhost:8443 (HOST and PORT). They trust the certificate the
server names there, sign in with PAYRAIL_ADMIN_KEY or the data folder's admin.key, and take:
  --url URL   the server to talk to
  --json      print the answer as JSON (with npm, \`npm run -s payrail -- …\` keeps npm's banner out of it)`;

export function generalUsage(): string {
  const lines = ['Usage: payrail <command> [action] [options]      (in the project: npm run -s payrail -- <command> …)', ''];
  for (const spec of Object.values(COMMANDS)) {
    for (const action of Object.values(spec.actions)) lines.push(`  ${action.synopsis}`, `      ${action.description.replaceAll('\n', '\n      ')}`);
  }
  lines.push(
    '',
    'payrail <command> --help (or payrail help <command>) shows one command, payrail --version the version.',
    '',
    SERVER_TEXT,
    '',
    'Configuration comes from the environment; see the README.',
    EXIT_CODES_TEXT,
  );
  return lines.join('\n');
}

export function commandUsage(name: string, spec: CommandSpec): string {
  const heading = hasActions(spec) ? `Usage: payrail ${name} <action> [options]` : `Usage: payrail ${name} [options]`;
  const lines = [heading, `${spec.summary}.`, ''];
  for (const action of Object.values(spec.actions)) lines.push(...describeAction(action));
  return [...lines, ...footer(spec)].join('\n');
}

export function actionUsage(spec: CommandSpec, action: ActionSpec): string {
  return [`Usage: payrail ${action.synopsis}`, '', ...describeAction(action), ...footer(spec)].join('\n');
}

function describeAction(action: ActionSpec): string[] {
  return [`  payrail ${action.synopsis}`, `      ${action.description.replaceAll('\n', '\n      ')}`];
}

function footer(spec: CommandSpec): string[] {
  const common = spec.admin ? [...ADMIN_OPTIONS.map((option) => `--${option}`), '--help'] : ['--help'];
  return ['', `Options of every action: ${common.join(', ')}.`, ...(spec.admin ? ['', SERVER_TEXT] : []), '', EXIT_CODES_TEXT];
}
