import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';

// The Payrail processes of a chaos run: each in its own process group, so a kill -9 (or the final cleanup) takes
// the whole group. Every kill opens a window that closes once the replacement answers /health (plus a grace);
// 5xx answers are only excused inside a window.

export type Role = 'api' | 'worker' | 'sandbox-adapter';

const READY_TIMEOUT_MS = 90_000;
const READY_POLL_MS = 150;
const WINDOW_GRACE_MS = 5_000;
const RESTART_TIME_MAX_MS = 180_000;
const OUTPUT_TAIL_CHARS_MAX = 4_000;

export interface Member {
  name: string;
  role: Role;
  port: number;
  child: ChildProcess | null;
  healthy: boolean;
  outputTail: string;
}

export interface KillWindow {
  member: string;
  from: number;
  to: number | null; // null while the replacement is not healthy yet
  duringStartUp: boolean;
}

export interface ClusterLaunch {
  cwd: string;
  dataDir: string; // one sub-folder per member
  env: Record<string, string>;
  ca: string;
}

export class Cluster {
  readonly members: Member[] = [];
  readonly windows: KillWindow[] = [];
  kills = 0;
  restarts = 0;
  readonly startDurationsMs: number[] = [];
  private stopping = false;
  private readonly spawned = new Set<ChildProcess>(); // every child ever started: none may outlive the run
  private readonly agent: Agent;
  private readonly launch: ClusterLaunch;

  constructor(launch: ClusterLaunch) {
    this.launch = launch;
    this.agent = new Agent({ connect: { ca: launch.ca }, connections: 4 });
  }

  add(name: string, role: Role, port: number): Member {
    const member: Member = { name, role, port, child: null, healthy: false, outputTail: '' };
    this.members.push(member);
    return member;
  }

  // Spawns the member and resolves once it answers /health (or rejects when it dies or takes too long).
  async start(member: Member): Promise<void> {
    if (this.stopping) throw new Error(`${member.name}: the run is stopping`);
    // One process per member: a start never leaves an earlier one running unseen.
    if (member.child?.pid !== undefined && this.isRunning(member)) killGroup(member.child.pid);
    const dataDir = join(this.launch.dataDir, member.name);
    mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    const child = spawn(process.execPath, ['src/main.ts', 'start', '--role', member.role], {
      cwd: this.launch.cwd,
      env: { PATH: process.env['PATH'] ?? '', ...this.launch.env, PORT: String(member.port), PAYRAIL_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group: kill(-pid) reaches anything it started
    });
    member.child = child;
    member.healthy = false;
    this.spawned.add(child);
    const output = createWriteStream(join(dataDir, 'output.log'), { flags: 'a', mode: 0o600 }); // kept with CHAOS_KEEP_WORK=1
    const keepTail = (chunk: Buffer) => {
      member.outputTail = (member.outputTail + chunk.toString('utf8')).slice(-OUTPUT_TAIL_CHARS_MAX);
      output.write(chunk);
    };
    child.stdout?.on('data', keepTail);
    child.stderr?.on('data', keepTail);
    child.once('exit', () => {
      output.end();
      this.spawned.delete(child);
      if (member.child === child) member.healthy = false;
    });
    const spawnedAt = Date.now();
    const deadline = spawnedAt + READY_TIMEOUT_MS;
    while (Date.now() < deadline && !this.stopping) {
      if (member.child !== child || child.exitCode !== null || child.signalCode !== null) {
        if (child.pid !== undefined) killGroup(child.pid); // replaced by a newer start: it must not linger
        throw new Error(`${member.name} exited during start-up (${child.exitCode ?? child.signalCode})`);
      }
      if (await this.answersHealth(member)) {
        member.healthy = true;
        this.startDurationsMs.push(Date.now() - spawnedAt);
        this.closeWindowsOf(member.name);
        return;
      }
      await sleep(READY_POLL_MS);
    }
    if (child.pid !== undefined) killGroup(child.pid);
    throw new Error(`${member.name} did not answer /health within ${READY_TIMEOUT_MS} ms:\n${member.outputTail}`);
  }

  // kill -9 of the member's process group; the window stays open until a replacement is healthy.
  kill(member: Member): void {
    const child = member.child;
    if (child?.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    this.windows.push({ member: member.name, from: Date.now(), to: null, duringStartUp: !member.healthy });
    killGroup(child.pid);
    member.healthy = false;
    this.kills += 1;
  }

  // Restarts after a kill; a start that failed (or was itself killed) is tried again until the member runs, for at
  // most RESTART_TIME_MAX_MS.
  async restart(member: Member): Promise<void> {
    const deadline = Date.now() + RESTART_TIME_MAX_MS;
    while (Date.now() < deadline && !this.stopping) {
      try {
        await this.start(member);
        this.restarts += 1;
        return;
      } catch {
        await sleep(300);
      }
    }
    if (!this.stopping) throw new Error(`${member.name} could not be restarted within ${RESTART_TIME_MAX_MS} ms:\n${member.outputTail}`);
  }

  isRunning(member: Member): boolean {
    const child = member.child;
    return child !== null && child.exitCode === null && child.signalCode === null;
  }

  // True when [from, to] overlaps a kill window (with its grace).
  insideKillWindow(from: number, to: number): boolean {
    return this.windows.some((window) => from <= (window.to ?? Number.POSITIVE_INFINITY) + WINDOW_GRACE_MS && to >= window.from);
  }

  // Stops everything: SIGKILL to every process group (a chaos run has nothing to shut down gracefully).
  async stopAll(): Promise<void> {
    this.stopping = true;
    const exits = [...this.spawned].map((child) => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      killGroup(child.pid);
      return Promise.race([exited, sleep(5_000)]);
    });
    await Promise.all(exits);
    await this.agent.close().catch(() => {});
  }

  // Synchronous last resort for process 'exit': no child outlives the harness.
  killAllNow(): void {
    for (const child of this.spawned) if (child.pid !== undefined) killGroup(child.pid);
  }

  private closeWindowsOf(name: string): void {
    const now = Date.now();
    for (const window of this.windows) if (window.member === name && window.to === null) window.to = now;
  }

  private async answersHealth(member: Member): Promise<boolean> {
    try {
      const response = await request(`https://127.0.0.1:${member.port}/health`, {
        dispatcher: this.agent,
        headersTimeout: 2_000,
        bodyTimeout: 2_000,
      });
      await response.body.dump();
      return response.statusCode === 200;
    } catch {
      return false;
    }
  }
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
