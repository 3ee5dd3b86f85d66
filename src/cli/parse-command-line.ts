import { parseArgs } from 'node:util';
import { errorCode, errorMessage } from '../platform/lib/type-guards.ts';
import { CliError } from './cli-error.ts';
import { ADMIN_OPTIONS, COMMANDS, hasActions, isAction, type ActionSpec, type CommandSpec } from './command-specs.ts';
import { actionUsage, commandUsage, generalUsage } from './help-text.ts';

// Every option of every command; each action then accepts only its own (command-specs.ts).
const OPTION_TYPES = {
  role: { type: 'string', default: 'all' },
  transport: { type: 'string' },
  name: { type: 'string' },
  'display-name': { type: 'string' },
  id: { type: 'string' },
  environment: { type: 'string' },
  url: { type: 'string' },
  merchant: { type: 'string' },
  alias: { type: 'string' },
  settings: { type: 'string' },
  'settings-file': { type: 'string' },
  routing: { type: 'string' },
  operation: { type: 'string' },
  percent: { type: 'string' },
  fixed: { type: 'string' },
  clear: { type: 'boolean', default: false },
  token: { type: 'string' },
  status: { type: 'string' },
  outcome: { type: 'string' },
  note: { type: 'string' },
  reason: { type: 'string' },
  accept: { type: 'boolean' },
  dismiss: { type: 'boolean' },
  all: { type: 'boolean' },
  operator: { type: 'string' },
  email: { type: 'string' },
  'member-role': { type: 'string' },
  phone: { type: 'string' },
  password: { type: 'string' },
  surname: { type: 'string' },
  company: { type: 'string' },
  currency: { type: 'string' },
  'wallet-type': { type: 'string' },
  country: { type: 'string' },
  limit: { type: 'string' },
  subject: { type: 'string' },
  actor: { type: 'string' },
  action: { type: 'string' },
  from: { type: 'string' },
  to: { type: 'string' },
  gateway: { type: 'string' },
  file: { type: 'string' },
  mapping: { type: 'string' },
  csv: { type: 'boolean', default: false },
  key: { type: 'string' },
  'forward-to': { type: 'string' },
  events: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', default: false },
} as const;

type ParsedValues = ReturnType<typeof parseAll>['values'];
export type CliOptionValues = Omit<ParsedValues, 'help' | 'version'> & { role: string; clear: boolean; json: boolean; csv: boolean };

export type CommandLine =
  | { kind: 'print'; text: string } // help or the version: printed on standard output, exit 0
  | { kind: 'run'; command: string; action: string; arguments: string[]; values: CliOptionValues };

const ARGUMENTS_MAX = 64;

function parseAll(argv: readonly string[]) {
  return parseArgs({ args: [...argv], allowPositionals: true, strict: true, tokens: true, options: OPTION_TYPES });
}

// Usage errors are CliErrors (exit 2) that say where the usage is.
export function parseCommandLine(argv: readonly string[], version: () => string): CommandLine {
  if (argv.length > ARGUMENTS_MAX) throw new CliError(`at most ${ARGUMENTS_MAX} arguments`);
  const parsed = parseOrExplain(argv);
  const { help, version: wantsVersion, ...values } = parsed.values;
  const [command, action, ...rest] = parsed.positionals;
  if (command === undefined) {
    if (wantsVersion && !help) return { kind: 'print', text: `payrail ${version()}` };
    if (help) return { kind: 'print', text: generalUsage() };
    throw new CliError(`a command is missing\n\n${generalUsage()}`);
  }
  const spec = commandSpec(command);
  if (command === 'help' && !help) {
    refuseForeignOptions(parsed.tokens, 'help', '', new Set());
    return { kind: 'print', text: helpFor(action, rest[0]) };
  }
  const actionName = resolveAction(command, spec, action, help);
  if (actionName === null) return { kind: 'print', text: commandUsage(command, spec) };
  const actionSpec = actionSpecOf(spec, actionName);
  if (help) return { kind: 'print', text: actionUsage(spec, actionSpec) };
  const actionArguments = hasActions(spec) ? rest : parsed.positionals.slice(1);
  const allowed = new Set<string>([...actionSpec.options, ...(spec.admin ? ADMIN_OPTIONS : [])]);
  refuseForeignOptions(parsed.tokens, command, actionName, allowed);
  if (actionArguments.length > (actionSpec.positionals ?? 0)) {
    throw new CliError(`unexpected argument "${actionArguments[actionSpec.positionals ?? 0]}" (payrail ${command} --help)`);
  }
  return { kind: 'run', command, action: actionName, arguments: actionArguments, values };
}

// parseArgs knows every command's options; an action accepts only its own.
function refuseForeignOptions(tokens: ReturnType<typeof parseAll>['tokens'], command: string, action: string, allowed: ReadonlySet<string>): void {
  const foreign = tokens.find((token) => token.kind === 'option' && !allowed.has(token.name));
  if (foreign === undefined || foreign.kind !== 'option') return;
  const named = `payrail ${`${command} ${action}`.trim()}`;
  const accepted = [...allowed].map((option) => `--${option}`).join(' ') || 'none but --help';
  throw new CliError(`${named} takes no --${foreign.name}; its options: ${accepted} (${named} --help)`);
}

function parseOrExplain(argv: readonly string[]): ReturnType<typeof parseAll> {
  try {
    return parseAll(argv);
  } catch (error) {
    if (!errorCode(error)?.startsWith('ERR_PARSE_ARGS')) throw error;
    const command = argv.find((argument) => !argument.startsWith('-'));
    const where = command !== undefined && Object.hasOwn(COMMANDS, command) ? `payrail ${command} --help` : 'payrail help';
    const unknownOption = /^Unknown option '([^']+)'/.exec(errorMessage(error))?.[1];
    throw new CliError(`${unknownOption === undefined ? errorMessage(error) : `unknown option ${unknownOption}`} (${where} lists the options)`);
  }
}

function commandSpec(command: string): CommandSpec {
  const spec = Object.hasOwn(COMMANDS, command) ? COMMANDS[command] : undefined;
  if (spec === undefined) throw new CliError(`unknown command "${command}": ${Object.keys(COMMANDS).join(' | ')} (payrail help)`);
  return spec;
}

// An action resolveAction or isAction found (a command without actions has the one named '').
function actionSpecOf(spec: CommandSpec, action: string): ActionSpec {
  const found = Object.hasOwn(spec.actions, action) ? spec.actions[action] : undefined;
  if (found === undefined) throw new Error(`no action "${action}" in the command specs`);
  return found;
}

// The action to run; null when the command's whole usage is wanted (--help without an action).
function resolveAction(command: string, spec: CommandSpec, action: string | undefined, help: boolean): string | null {
  if (!hasActions(spec)) return '';
  if (isAction(spec, action)) return action;
  if (action === undefined && help) return null;
  if (action === undefined && spec.defaultAction !== undefined) return spec.defaultAction;
  const actions = Object.keys(spec.actions).join(' | ');
  if (action === undefined) throw new CliError(`payrail ${command} needs an action: ${actions}\n\n${commandUsage(command, spec)}`);
  throw new CliError(`unknown ${command} action "${action}": ${actions} (payrail ${command} --help)`);
}

function helpFor(command: string | undefined, action: string | undefined): string {
  if (command === undefined) return generalUsage();
  const spec = commandSpec(command);
  if (action === undefined) return commandUsage(command, spec);
  if (!isAction(spec, action)) throw new CliError(`unknown ${command} action "${action}": ${Object.keys(spec.actions).join(' | ')}`);
  return actionUsage(spec, actionSpecOf(spec, action));
}
