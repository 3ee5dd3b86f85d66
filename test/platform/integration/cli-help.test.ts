import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CliError, EXIT_CODES } from '../../../src/cli/cli-error.ts';
import { ADMIN_OPTIONS, COMMANDS } from '../../../src/cli/command-specs.ts';
import { parseCommandLine } from '../../../src/cli/parse-command-line.ts';
import { runCli } from '../../support/cli.ts';

// `payrail help`, `payrail <command> --help`, `--version`, and usage errors: exit 2 with a pointer to the help.
const SPAWNS_A_PROCESS_MS = 90_000;
const version = (JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version;
const commandNames = Object.keys(COMMANDS);
const actions = commandNames.flatMap((command) => Object.keys(COMMANDS[command]!.actions).map((action) => [command, action] as const));
const parse = (...argv: string[]) => parseCommandLine(argv, () => version);

describe('payrail help as a process', { timeout: SPAWNS_A_PROCESS_MS }, () => {
  it('lists every command and action, how the server is found, and the exit codes', async () => {
    const run = await runCli(['help']);
    expect(run).toMatchObject({ exitCode: 0, stderr: '' });
    for (const spec of Object.values(COMMANDS)) for (const action of Object.values(spec.actions)) expect(run.stdout).toContain(action.synopsis);
    expect(run.stdout).toContain('server.json');
    expect(run.stdout).toMatch(/Exit codes: 0 .*; 1 .*; 2 usage error/s);
    expect(run.stdout).toMatch(/3 cannot reach the server/);
    expect((await runCli(['--help'])).stdout).toBe(run.stdout);
  });

  it.each(commandNames)('answers `payrail %s --help` with that command’s usage, exit 0', async (command) => {
    const run = await runCli([command, '--help']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Usage: payrail ${command}`));
    for (const action of Object.values(COMMANDS[command]!.actions)) expect(run.stdout).toContain(action.synopsis);
    expect(run.stdout).toContain('Exit codes:');
  });

  it('prints the version of package.json for --version', async () => {
    expect(await runCli(['--version'])).toMatchObject({ exitCode: 0, stdout: `payrail ${version}\n` });
  });

  it('exits 2 with a pointer to the help for an unknown option, command or action, and for no command', async () => {
    const unknownOption = await runCli(['merchant', 'list', '--colour', 'blue']);
    expect(unknownOption).toMatchObject({ exitCode: EXIT_CODES.usage, stdout: '' });
    expect(unknownOption.stderr).toContain('unknown option --colour (payrail merchant --help lists the options)');
    const foreignOption = await runCli(['merchant', 'list', '--email', 'a@example.com']);
    expect(foreignOption.exitCode).toBe(EXIT_CODES.usage);
    expect(foreignOption.stderr).toContain('payrail merchant list takes no --email');
    const unknownCommand = await runCli(['merchants', 'list']);
    expect(unknownCommand.exitCode).toBe(EXIT_CODES.usage);
    expect(unknownCommand.stderr).toContain('unknown command "merchants"');
    expect((await runCli(['gateway', 'remove'])).exitCode).toBe(EXIT_CODES.usage);
    expect((await runCli([])).exitCode).toBe(EXIT_CODES.usage);
    expect((await runCli(['adapter-check', '--sign-keys', 'x'])).exitCode).toBe(EXIT_CODES.usage);
  });
});

describe('the command table behind the help', () => {
  it.each(actions)('`payrail %s %s --help` lists every option that action accepts', (command, action) => {
    const argv = action === '' ? [command, '--help'] : [command, action, '--help'];
    const answer = parse(...argv);
    if (answer.kind !== 'print') throw new Error(`${argv.join(' ')} did not print help`);
    const spec = COMMANDS[command]!;
    for (const option of spec.actions[action]!.options) expect(answer.text).toContain(`--${option}`);
    if (spec.admin) for (const option of ADMIN_OPTIONS) expect(answer.text).toContain(`--${option}`);
  });

  it.each(actions.filter(([command]) => command !== 'help' && command !== 'adapter-check'))(
    '`payrail %s %s` refuses an option of another action as a usage error',
    (command, action) => {
      const accepted = new Set([...COMMANDS[command]!.actions[action]!.options, ...ADMIN_OPTIONS]);
      const foreign = ['token', 'limit', 'surname', 'operation'].find((option) => !accepted.has(option))!;
      const argv = [command, ...(action === '' ? [] : [action]), `--${foreign}`, '1'];
      expect(() => parse(...argv)).toThrow(CliError);
      expect(() => parse(...argv)).toThrow(`takes no --${foreign}`);
    },
  );

  it('takes the arguments an action declares and no more', () => {
    expect(parse('conflicts', 'resolve', '12', '--accept')).toMatchObject({ kind: 'run', command: 'conflicts', action: 'resolve', arguments: ['12'] });
    expect(parse('conflicts', '--all')).toMatchObject({ kind: 'run', action: 'list' });
    expect(() => parse('conflicts', 'resolve', '12', '13', '--accept')).toThrow('unexpected argument "13"');
    expect(() => parse('merchant', 'list', 'extra')).toThrow('unexpected argument "extra"');
    expect(() => parse('start', 'now')).toThrow('unexpected argument "now"');
    expect(() => parse('help', 'merchant', '--json')).toThrow('payrail help takes no --json');
  });

  it('reads --password - as "from standard input", not as an option', () => {
    const answer = parse('user', 'create', '--email', 'a@example.com', '--password', '-');
    expect(answer).toMatchObject({ kind: 'run', values: { password: '-' } });
  });

  it('marks every usage error with exit code 2', () => {
    const failures = [() => parse('merchant', 'list', '--nope'), () => parse('merchant', 'get', '--id'), () => parse('nope'), () => parse('merchant')];
    for (const failure of failures) {
      try {
        failure();
        expect.unreachable();
      } catch (error) {
        expect(error).toBeInstanceOf(CliError);
        expect((error as CliError).exitCode).toBe(EXIT_CODES.usage);
      }
    }
  });
});
