// The processes of deploy/Procfile, started as its lines say (each through `sh -c`, the Procfile's own syntax), for
// `npm run deploy:example`. Each one's output is kept for the report when something fails.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

const OUTPUT_TAIL_CHARS_MAX = 6_000;
const READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 250;
const STOP_GRACE_MS = 10_000;

export interface ProcfileLine {
  name: string;
  command: string;
}

export function readProcfile(path: string): ProcfileLine[] {
  const lines = readFileSync(path, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
  return lines.map((line) => {
    const match = /^([A-Za-z0-9_-]+):\s*(.+)$/.exec(line);
    if (!match) throw new Error(`deploy/Procfile: "${line}" is not "name: command"`);
    return { name: match[1]!, command: match[2]! };
  });
}

export interface RunningProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

// `node` in the Procfile is the Node.js running this script (Payrail needs 24 or later).
export function startProcess(line: ProcfileLine, cwd: string, env: Record<string, string>): RunningProcess {
  const path = `${dirname(process.execPath)}:${process.env['PATH'] ?? ''}`;
  // `exec env …`: the line's own assignments, and the signals reach node itself, not the shell.
  const child = spawn('sh', ['-c', `exec env ${line.command}`], { cwd, env: { ...env, PATH: path }, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS_MAX);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name: line.name,
    child,
    output: () => tail,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
      if (!stopped) child.kill('SIGKILL');
      await exited;
    },
  };
}

// Resolves once GET <url>/health answers 200 over HTTPS with the example's certificate.
export async function waitHealthy(running: RunningProcess, url: string, ca: string): Promise<void> {
  const agent = new Agent({ connect: { ca } });
  const deadline = Date.now() + READY_TIMEOUT_MS;
  try {
    while (Date.now() < deadline) {
      if (running.child.exitCode !== null) throw new Error(`${running.name} exited during start-up:\n${running.output()}`);
      try {
        const response = await request(`${url}/health`, { dispatcher: agent });
        await response.body.dump();
        if (response.statusCode === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(READY_POLL_MS);
    }
    throw new Error(`${running.name} did not answer ${url}/health within ${READY_TIMEOUT_MS} ms:\n${running.output()}`);
  } finally {
    await agent.close();
  }
}

// Resolves once the process printed a line matching `pattern`.
export async function waitForOutput(running: RunningProcess, pattern: RegExp): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (!pattern.test(running.output())) {
    if (running.child.exitCode !== null || Date.now() > deadline) throw new Error(`${running.name} did not start:\n${running.output()}`);
    await sleep(READY_POLL_MS);
  }
}
