import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Cluster, Member } from './cluster.ts';

// kill -9 of a random running Payrail process at jittered intervals, restarted shortly after; every third restart
// is killed again during its start-up (before it answers /health). Bounded by the run's end (plus a short while to
// make up kills that found no healthy process).

const START_UP_KILL_EVERY = 3;
const MIN_INTERVAL_MS = 700;
const LATE_KILLS_MS = 20_000;

export interface KillPlan {
  until: number; // epoch ms: no kill after this
  kills: number; // at least this many within the run (the checks hold the run to it)
}

export async function killAtRandom(cluster: Cluster, plan: KillPlan, report: (line: string) => void): Promise<void> {
  const restarts: Promise<void>[] = [];
  let slot = 0;
  // Past the plan's end only to make up kills that found nobody to kill, and not for long.
  const hardEnd = plan.until + LATE_KILLS_MS;
  const pace = (plan.until - Date.now()) / (plan.kills * 1.25 + 1);
  while (Date.now() < hardEnd && (Date.now() < plan.until || cluster.kills < plan.kills)) {
    // Behind the plan, what is left is spread over the time left, so the count is reached whatever start-ups took.
    const left = plan.kills - cluster.kills;
    const catchUp = left > 0 ? (plan.until - Date.now()) / (left + 1) : pace;
    const interval = Math.max(MIN_INTERVAL_MS, Math.min(pace, catchUp));
    await sleep(randomInt(Math.floor(interval * 0.6), Math.floor(interval * 1.4)));
    const target = pickTarget(cluster);
    if (target === null) continue;
    cluster.kill(target);
    slot += 1;
    restarts.push(restartAfterKill(cluster, target, slot % START_UP_KILL_EVERY === 1, report));
  }
  await Promise.all(restarts);
}

// Any healthy process, except the last healthy api: the balancer always has somewhere to send a request. (Processes
// still starting are left alone here: on a loaded machine a start-up takes many seconds, and killing them to catch up
// would keep the service down.)
function pickTarget(cluster: Cluster): Member | null {
  const healthyApis = cluster.members.filter((member) => member.role === 'api' && member.healthy).length;
  const candidates = cluster.members.filter((member) => member.healthy && (member.role !== 'api' || healthyApis > 1));
  // The acquirer's side less often: while it is down every payment waits for it, and nothing else is tested.
  const weighted = candidates.flatMap((member) => Array.from({ length: member.role === 'sandbox-adapter' ? 1 : 3 }, () => member));
  return weighted.length === 0 ? null : weighted[randomInt(weighted.length)]!;
}

async function restartAfterKill(cluster: Cluster, member: Member, duringStartUp: boolean, report: (line: string) => void): Promise<void> {
  await sleep(randomInt(200, 1500));
  if (duringStartUp) {
    const starting = cluster.start(member).catch(() => {});
    await sleep(randomInt(200, 1200)); // node is still loading or migrating: a kill during start-up
    if (!member.healthy) cluster.kill(member);
    await starting;
  }
  if (!cluster.isRunning(member) || !member.healthy) {
    await cluster.restart(member).catch((error: unknown) => report(`restart failed: ${(error as Error).message}`));
  }
}
