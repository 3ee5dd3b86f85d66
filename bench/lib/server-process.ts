import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { CleanupStack } from './cleanup.ts';

const READY_TIMEOUT_MS = 60_000;
const READY_POLL_INTERVAL_MS = 200;
const STOP_GRACE_MS = 10_000;
const OUTPUT_TAIL_CHARS_MAX = 8_000;

export interface ServerProcess {
  name: string;
  pid: number;
  url: string; // https://127.0.0.1:<port>
  agent: Agent; // trusts the server's self-signed certificate
  outputTail(): string;
  stop(): Promise<void>;
}

export interface ServerLaunch {
  name: string;
  cwd: string;
  args: string[]; // after the node executable
  port: number;
  dataDir: string; // the server writes its self-signed certificate to <dataDir>/tls/cert.pem
  env: Record<string, string>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => (port > 0 ? resolve(port) : reject(new Error('no free port'))));
    });
  });
}

// Starts a server as its own process and resolves once GET /health answers 200 over verified HTTPS.
// Its stop is registered with the cleanup stack at once, so an interrupt during start-up stops it too.
export async function startServer(launch: ServerLaunch, cleanup: CleanupStack): Promise<ServerProcess> {
  const child = spawn(process.execPath, launch.args, {
    cwd: launch.cwd,
    env: { PATH: process.env['PATH'] ?? '', ...launch.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let outputTail = '';
  const keepTail = (chunk: Buffer) => {
    outputTail = (outputTail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS_MAX);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', (error) => {
      keepTail(Buffer.from(`spawn failed: ${error.message}\n`));
      resolve();
    });
  });
  const stop = cleanup.defer(`stop ${launch.name}`, () => stopChild(child, exited));
  const url = `https://127.0.0.1:${launch.port}`;
  try {
    const agent = await waitUntilHealthy(launch, url, child, () => outputTail);
    return {
      name: launch.name,
      pid: child.pid ?? 0,
      url,
      agent,
      outputTail: () => outputTail,
      stop: async () => {
        await agent.close().catch(() => {});
        await stop();
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function waitUntilHealthy(launch: ServerLaunch, url: string, child: ChildProcess, tail: () => string): Promise<Agent> {
  const certPath = join(launch.dataDir, 'tls', 'cert.pem');
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`${launch.name} exited during start-up (${child.exitCode ?? child.signalCode}):\n${tail()}`);
    }
    if (existsSync(certPath)) {
      const agent = new Agent({ connect: { ca: readFileSync(certPath, 'utf8') } });
      try {
        const response = await request(`${url}/health`, { dispatcher: agent });
        await response.body.dump();
        if (response.statusCode === 200) return agent;
      } catch {
        // not listening yet, or the certificate was still being written
      }
      await agent.close().catch(() => {});
    }
    await sleep(READY_POLL_INTERVAL_MS);
  }
  throw new Error(`${launch.name} did not answer GET /health within ${READY_TIMEOUT_MS} ms:\n${tail()}`);
}

async function stopChild(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) {
    // A killed server writes no --cpu-prof profile: say so, or the missing file is a mystery.
    process.stderr.write(`server ${child.pid} did not stop within ${STOP_GRACE_MS} ms of SIGTERM; killed (no CPU profile)\n`);
    child.kill('SIGKILL');
    await exited;
  }
}
