import { execFile } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { startApi, type RunningApi } from '../../../src/platform/runtime/start-api.ts';
import { documentedFiles, runnableDocsRunnable, scriptOf, shellBlocks, shellCommands, type ShellBlock } from '../../support/runnable-docs.ts';
import { freePort } from '../../support/server-harness.ts';

const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../..');
const DOCS_RUN_MS = 300_000; // the blocks take ~40 s on an idle machine, two minutes and more on a loaded one
const runFile = promisify(execFile);

const blocks: ShellBlock[] = documentedFiles(REPOSITORY_ROOT).flatMap((file) => shellBlocks(REPOSITORY_ROOT, file));
const runnable = blocks.filter((block) => block.runnable);
const curlCommands = blocks.flatMap((block) =>
  shellCommands(block.code)
    .filter((command) => /(^|[|;&(]\s*|\$\()curl\s/.test(command))
    .map((command) => ({ where: `${block.file}:${block.line}`, command })),
);

describe('the docs as shell commands', () => {
  it('marks runnable blocks in the README and in docs/', () => {
    expect(runnable.filter((block) => block.file === 'README.md').length).toBeGreaterThanOrEqual(3);
    expect(new Set(runnable.map((block) => block.file)).size).toBeGreaterThanOrEqual(6);
  });

  it('sends every curl to $PAYRAIL (or a URL an answer gave), trusting $CACERT, and names no other host or port', () => {
    const strays = curlCommands.filter(
      ({ command }) =>
        !command.includes('--cacert "$CACERT"') || !/"\$(PAYRAIL|[A-Z_]+_URL)\b/.test(command) || /:8443|payrail\.example|pay\.example/.test(command),
    );
    expect(strays).toEqual([]);
  });

  it('never links into ../shared/, which a clone does not have', () => {
    const linking = documentedFiles(REPOSITORY_ROOT).filter((file) => readFileSync(join(REPOSITORY_ROOT, file), 'utf8').includes('../shared/'));
    expect(linking).toEqual([]);
  });
});

describe.runIf(runnableDocsRunnable)('the runnable docs against a fresh `npm start` (pglite)', { timeout: DOCS_RUN_MS }, () => {
  let dataDir: string;
  let port: number;
  let running: RunningApi;

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-docs-'));
    port = await freePort();
    // What `PORT=… npm start` does with a new data folder: the embedded engine, the demo merchant, default settings.
    const config = loadConfig({ PORT: String(port), PAYRAIL_DATA_DIR: dataDir, PAYRAIL_LOG_LEVEL: 'silent' });
    running = await startApi(config, () => {});
  }, DOCS_RUN_MS);
  afterAll(async () => {
    await running?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  async function runBlocks(blocksToRun: ShellBlock[]): Promise<{ failed: boolean; stdout: string; stderr: string }> {
    // The second terminal of the quick start: the data folder, nothing else (the port is found in data/server.json).
    const environment: NodeJS.ProcessEnv = { ...process.env, PAYRAIL_DATA_DIR: dataDir };
    for (const name of ['PORT', 'DATABASE_URL', 'PAYRAIL_PUBLIC_URL', 'PAYRAIL_ADMIN_KEY', 'PAYRAIL', 'KEY', 'CACERT', 'ADMIN_KEY']) delete environment[name];
    return runFile('bash', ['-c', scriptOf(blocksToRun)], {
      cwd: REPOSITORY_ROOT,
      env: environment,
      timeout: DOCS_RUN_MS - 30_000,
      maxBuffer: 32 * 1024 * 1024,
    }).then(
      ({ stdout, stderr }) => ({ failed: false, stdout, stderr }),
      (error: { stdout: string; stderr: string }) => ({ failed: true, stdout: error.stdout, stderr: error.stderr }),
    );
  }

  it('runs every runnable block in order, without a failing command or an HTTP error', async () => {
    const outcome = await runBlocks(runnable);
    // The whole tail in the failure's message (an assertion's diff would cut it short).
    if (outcome.failed) throw new Error(`a runnable block failed:\n${outcome.stderr.split('\n').slice(-40).join('\n')}\n${outcome.stdout.slice(-2000)}`);
  });

  it("keeps the demo merchant's sandbox key for the quick start, readable by its owner only", () => {
    const keyFile = join(dataDir, 'demo-merchant.key');
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(keyFile, 'utf8')).toMatch(/^sk_sandbox_\S+\n$/);
  });

  it('stops at an HTTP error and names the block it failed in', async () => {
    const quickStart = runnable[0]!;
    const broken: ShellBlock = {
      file: 'docs/broken.md',
      line: 7,
      runnable: true,
      code: 'curl -fsS --cacert "$CACERT" "$PAYRAIL/api/v1/payments/00000000000000000000000000000000" -H "Authorization: Bearer $KEY"\necho after-the-error',
    };
    const outcome = await runBlocks([quickStart, broken]);
    expect(outcome.failed).toBe(true);
    expect(outcome.stderr).toContain('failed in docs/broken.md:7');
    expect(outcome.stdout).not.toContain('after-the-error');
  });
});
