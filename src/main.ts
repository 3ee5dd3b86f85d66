import { CliError, EXIT_CODES, type ExitCode } from './cli/cli-error.ts';
import { COMMANDS } from './cli/command-specs.ts';
import { parseCommandLine } from './cli/parse-command-line.ts';
import { payrailVersion } from './cli/version.ts';
import { ConfigError, loadConfig, type Config } from './platform/config.ts';
import { DataDirLockedError } from './platform/lib/data-dir.ts';
import { errorCode, errorMessage } from './platform/lib/type-guards.ts';

const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(argv: string[]): Promise<number> {
  // adapter-check has its own options, and no Payrail configuration: it runs against any adapter, anywhere.
  const adapterCheckArguments = argv[0] === 'adapter-check' ? argv.slice(1) : argv[0] === 'help' && argv[1] === 'adapter-check' ? ['--help'] : null;
  if (adapterCheckArguments !== null) {
    const { runAdapterCheckCommand } = await import('./cli/adapter-check-command.ts');
    return runAdapterCheckCommand(adapterCheckArguments, print);
  }
  const line = parseCommandLine(argv, payrailVersion);
  if (line.kind === 'print') {
    print(line.text);
    return EXIT_CODES.ok;
  }
  const config = loadConfig();
  switch (line.command) {
    case 'start':
      return start(config, line.values.role, line.values.transport);
    case 'migrate': {
      // Loaded on demand: admin commands should start fast, without the database engines.
      const { openStore } = await import('./platform/runtime/open-store.ts');
      const store = await openStore(config);
      await store.close();
      print(`migrations applied (${config.databaseUrl ? 'postgres' : `pglite in ${config.dataDir}`})`);
      return EXIT_CODES.ok;
    }
    case 'listen': {
      const { runListenCommand } = await import('./cli/listen-command.ts');
      const stop = new AbortController();
      process.once('SIGINT', () => stop.abort());
      process.once('SIGTERM', () => stop.abort());
      await runListenCommand(config, line.values, print, stop.signal);
      return EXIT_CODES.ok;
    }
    case 'trigger': {
      const { runTriggerCommand } = await import('./cli/trigger-command.ts');
      await runTriggerCommand(config, line.arguments[0], line.values, print);
      return EXIT_CODES.ok;
    }
    default: {
      if (!COMMANDS[line.command]?.admin) throw new CliError(`payrail ${line.command} cannot run here (payrail help)`);
      const { runAdminCommand } = await import('./cli/run-admin-command.ts');
      await runAdminCommand(config, line, print);
      return EXIT_CODES.ok;
    }
  }
}

async function start(config: Config, role: string, transport: string | undefined): Promise<number> {
  if (role === 'sandbox-adapter') {
    if (transport !== undefined && transport !== 'http' && transport !== 'rabbit') throw new CliError(`unknown transport "${transport}": http | rabbit`);
    const { startSandboxAdapterRole } = await import('./platform/runtime/start-sandbox-adapter.ts');
    return waitForSignal(await startSandboxAdapterRole(config, print, transport ?? config.sandboxAdapterTransport));
  }
  if (transport !== undefined) {
    throw new CliError('--transport is for --role sandbox-adapter; the api reaches its sandbox as PAYRAIL_SANDBOX_ADAPTER_TRANSPORT says');
  }
  if (role !== 'all' && role !== 'api' && role !== 'worker') {
    throw new CliError(`unknown role "${role}": all | api | worker | sandbox-adapter`);
  }
  const { startApi } = await import('./platform/runtime/start-api.ts');
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
        process.stderr.write(`shutdown failed: ${errorMessage(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.once('SIGINT', () => stop('SIGINT'));
  process.once('SIGTERM', () => stop('SIGTERM'));
  return new Promise<number>(() => {}); // runs until a signal
}

// One exit code per kind of failure (cli-error.ts); a stack only for what nobody foresaw.
function exitCodeOf(error: unknown): { exitCode: ExitCode; message: string } {
  const message = errorMessage(error);
  const code = errorCode(error);
  if (error instanceof CliError) return { exitCode: error.exitCode, message };
  if (code?.startsWith('ERR_PARSE_ARGS')) return { exitCode: EXIT_CODES.usage, message }; // adapter-check's options
  if (error instanceof ConfigError || error instanceof DataDirLockedError) return { exitCode: EXIT_CODES.setup, message };
  if (code === 'EADDRINUSE') return { exitCode: EXIT_CODES.setup, message: `${message}: another process listens there (PORT)` };
  return { exitCode: EXIT_CODES.failed, message: (error instanceof Error ? error.stack : undefined) ?? message };
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const { exitCode, message } = exitCodeOf(error);
    process.stderr.write(`payrail: ${message}\n`);
    process.exit(exitCode);
  },
);
