import { parseArgs } from 'node:util';
import { CliError } from './cli/cli-error.ts';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { DataDirLockedError } from './lib/data-dir.ts';

const USAGE = `Usage: payrail <command> [options]

  start [--role all|api|worker|sandbox-adapter]  start the service (default: everything in one process)
  start --role sandbox-adapter [--transport http|rabbit]  rabbit: also consume its RabbitMQ queue (default PAYRAIL_SANDBOX_ADAPTER_TRANSPORT)
  migrate                      apply database migrations and exit
  merchant create --name NAME [--display-name TEXT]  create a merchant and print its sandbox and production keys
  merchant update --id ID [--name NAME] [--display-name TEXT]  the display name is what the checkout shows ("" clears it)
  merchant list                list merchants
  merchant get --id ID
  merchant rotate-key --id ID --environment sandbox|production
  merchant disable --id ID | merchant enable --id ID
  merchant commissions --id ID  show the merchant's commission terms for pay, payout and refund
  merchant set-commission --id ID --operation pay|payout|refund (--percent 2.5 --fixed 30 | --clear)
  gateway add --merchant ID --alias NAME --environment sandbox|production (--settings JSON | --settings-file PATH) [--routing JSON]
  gateway list --merchant ID
  gateway update --merchant ID --id GID (--settings JSON | --settings-file PATH | --alias NAME | --routing JSON|null)
  gateway disable|enable --merchant ID --id GID
  dispute list [--merchant ID] [--status open|under_review|won|lost]
  dispute get --token T        a dispute with its documents
  dispute review --token T     put an open dispute under review
  dispute resolve --token T --outcome won|lost [--note TEXT]  won: the hold back to available; lost: the merchant is debited (the note is shown to the merchant)
  conflicts [--all]            late provider answers that contradicted a final status, unresolved ones (--all: every one)
  conflicts resolve ID --accept|--dismiss [--operator NAME]  accept: apply the reported status (ledger posting, notification); dismiss: keep it
  user create --email E --phone P --password PW|- --name N --surname S [--company C] [--currency EUR] [--wallet-type personal|business] [--country GB]
                               create a person who signs in to the core banking API (--password -: read it from standard input)
  user list                    list profiles
  app-token create --name NAME  create a token for an internal service (header app-token); shown once
  app-token list | app-token revoke --id ID
  outbox [--limit N]           messages to people (sign-in codes); without SMTP their text is shown until the code expires
  adapter-check --url URL --sign-key KEY [--card-decline PAN] [--card-callback PAN] [--json] …
                               run the adapter conformance suite against a running adapter (adapter-check --help)

Options: --url URL (admin commands; default PAYRAIL_PUBLIC_URL or https://localhost:8443), --json, --help
Configuration comes from the environment; see the README.`;

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'adapter-check') {
    // Its own options, and no Payrail configuration: it runs against any adapter, anywhere.
    const { runAdapterCheckCommand } = await import('./cli/adapter-check-command.ts');
    return runAdapterCheckCommand(argv.slice(1), print);
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
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
      accept: { type: 'boolean' },
      dismiss: { type: 'boolean' },
      all: { type: 'boolean' },
      operator: { type: 'string' },
      email: { type: 'string' },
      phone: { type: 'string' },
      password: { type: 'string' },
      surname: { type: 'string' },
      company: { type: 'string' },
      currency: { type: 'string' },
      'wallet-type': { type: 'string' },
      country: { type: 'string' },
      limit: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  const [command, action] = positionals;
  if (values.help || !command) {
    print(USAGE);
    return command || values.help ? 0 : 2;
  }
  const config = loadConfig();
  switch (command) {
    case 'start':
      return start(config, values.role, values.transport);
    case 'migrate': {
      // Loaded on demand: admin commands should start fast, without the database engines.
      const { openStore } = await import('./runtime/open-store.ts');
      const store = await openStore(config);
      await store.close();
      print(`migrations applied (${config.databaseUrl ? 'postgres' : `pglite in ${config.dataDir}`})`);
      return 0;
    }
    case 'merchant': {
      const { adminClient } = await import('./cli/admin-client.ts');
      const { runMerchantCommand } = await import('./cli/merchant-commands.ts');
      const client = adminClient(config, values.url ?? config.publicUrl);
      try {
        const { COMMISSION_ACTIONS, runCommissionCommand } = await import('./cli/commission-commands.ts');
        if (action !== undefined && COMMISSION_ACTIONS.includes(action)) await runCommissionCommand(client, action, { ...values }, print);
        else await runMerchantCommand(client, action, { ...values }, print);
      } finally {
        await client.close();
      }
      return 0;
    }
    case 'dispute': {
      const { adminClient } = await import('./cli/admin-client.ts');
      const { runDisputeCommand } = await import('./cli/dispute-commands.ts');
      const client = adminClient(config, values.url ?? config.publicUrl);
      try {
        await runDisputeCommand(client, action, { ...values }, print);
      } finally {
        await client.close();
      }
      return 0;
    }
    case 'conflicts': {
      const { adminClient } = await import('./cli/admin-client.ts');
      const { runConflictCommand } = await import('./cli/conflict-commands.ts');
      const client = adminClient(config, values.url ?? config.publicUrl);
      try {
        await runConflictCommand(client, positionals.slice(1), { ...values }, print);
      } finally {
        await client.close();
      }
      return 0;
    }
    case 'gateway': {
      const { adminClient } = await import('./cli/admin-client.ts');
      const { runGatewayCommand } = await import('./cli/gateway-commands.ts');
      const client = adminClient(config, values.url ?? config.publicUrl);
      try {
        await runGatewayCommand(client, action, { ...values, settingsFile: values['settings-file'] }, print);
      } finally {
        await client.close();
      }
      return 0;
    }
    case 'user':
    case 'app-token':
    case 'outbox': {
      const { adminClient } = await import('./cli/admin-client.ts');
      const { runCoreBankingCommand } = await import('./cli/core-banking-commands.ts');
      const client = adminClient(config, values.url ?? config.publicUrl);
      try {
        await runCoreBankingCommand(client, command, action, { ...values, walletType: values['wallet-type'] }, print);
      } finally {
        await client.close();
      }
      return 0;
    }
    default:
      process.stderr.write(`unknown command "${command}"\n\n${USAGE}\n`);
      return 2;
  }
}

async function start(config: Config, role: string, transport: string | undefined): Promise<number> {
  if (role === 'sandbox-adapter') {
    if (transport !== undefined && transport !== 'http' && transport !== 'rabbit') throw new CliError(`unknown transport "${transport}": http | rabbit`);
    const { startSandboxAdapterRole } = await import('./runtime/start-sandbox-adapter.ts');
    return waitForSignal(await startSandboxAdapterRole(config, print, transport ?? config.sandboxAdapterTransport));
  }
  if (transport !== undefined) {
    throw new CliError('--transport is for --role sandbox-adapter; the api reaches its sandbox as PAYRAIL_SANDBOX_ADAPTER_TRANSPORT says');
  }
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new CliError(`unknown role "${role}": all | api | worker | sandbox-adapter`);
  }
  const { startApi } = await import('./runtime/start-api.ts');
  const running = await startApi(config, print, { api: role !== 'worker', worker: role !== 'api' });
  return waitForSignal(running);
}

async function waitForSignal(running: { app: { log: { info(object: object, message: string): void } }; stop(): Promise<void> }): Promise<number> {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    running.app.log.info({ signal }, 'shutting down');
    running.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`shutdown failed: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return new Promise<number>(() => {}); // runs until a signal
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const known = error instanceof CliError || error instanceof ConfigError || error instanceof DataDirLockedError;
    const isUsage = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`payrail: ${known || isUsage ? (error as Error).message : (error as Error).stack}\n`);
    process.exit(isUsage ? 2 : 1);
  },
);
