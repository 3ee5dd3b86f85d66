import { execFile } from 'node:child_process';

export interface CliRun {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const CLI_RUN_TIMEOUT_MS = 60_000;

// The CLI as an operator runs it: its own process, the pinned Node, an environment of our choosing.
export function runCli(args: readonly string[], environment: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const env = { ...process.env, PAYRAIL_PUBLIC_URL: '', PAYRAIL_ADMIN_KEY: '', ...environment };
  return new Promise((resolve) => {
    execFile(process.execPath, ['src/main.ts', ...args], { env, timeout: CLI_RUN_TIMEOUT_MS }, (error, stdout, stderr) => {
      const exitCode = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
      resolve({ exitCode, stdout, stderr });
    });
  });
}
