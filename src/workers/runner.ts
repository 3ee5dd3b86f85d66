import type { FastifyBaseLogger } from 'fastify';
import type { ProcessingDeps } from '../payments/index.ts';
import type { Db } from '../platform/database.ts';
import { asSystem } from '../platform/lib/audit-context.ts';
import { claimNotificationWork } from '../payments/index.ts';
import { claimWork, settleFailedWork, type OutboxRow, type OutboxTopic } from '../payments/index.ts';
import { watchTestClockAdvances } from '../payments/index.ts';
import { voidDueAuthorizations } from './authorization-void.ts';
import { foldDailyStats } from './daily-stats.ts';
import { expireDuePayments } from './expiry.ts';
import { nextAfterFailure } from './failed-work.ts';
import { deliverNotifications } from './notifier.ts';
import { runRefundChecks } from './refund-checker.ts';
import { runStatusCheck } from './status-checker.ts';
import { deliverUserMessages } from './user-messages.ts';
import { sweepSignInRecords } from './sign-in-housekeeping.ts';
import { pruneEvents } from './event-pruning.ts';

const CLAIM_BATCH_MAX = 50;
// A topic whose batch came back full goes again before the housekeeping of the pass, up to this many batches: under
// load the merchants' notifications kept up with a third of the approvals when each pass took one batch of them.
const TOPIC_BATCHES_PER_PASS_MAX = 8;
// A topic whose first batch came back full runs this many batches side by side: a batch spends most of its time
// waiting (its claim, its sends, its record), so under load one batch at a time fell behind the approvals with the
// event loop idle. Claims skip rows another batch holds, and a notification is not claimed while an earlier one of
// its payment is open, so the lanes never reorder a payment's events.
const TOPIC_LANES = 4;
const WAKE_PASSES = 2;

export interface RunningWorkers {
  stop(): Promise<void>;
  tick(): Promise<void>; // one pass over every topic, for tests
}

type Work = Pick<OutboxRow, 'id' | 'attempts'>;

interface TopicWorker<W extends Work> {
  claim(db: Db, batchSizeMax: number): Promise<W[]>; // due rows, leased to this worker
  run(deps: ProcessingDeps, batch: W[], log: FastifyBaseLogger): Promise<void>; // each row's failure handled inside
}

// One pass of a topic: claims a batch and runs it; true when the batch came back full, so more work is waiting.
// A batch that could not be written keeps its leases: its rows are claimed again once they lapse.
type TopicPass = (deps: ProcessingDeps, log: FastifyBaseLogger) => Promise<boolean>;

// A worker that changes audited rows (status checks, refund checks) runs as its own actor, `system:<worker>`.
function topicPass<W extends Work>(topic: OutboxTopic, worker: TopicWorker<W>, actorName: string | null = null): TopicPass {
  return async (deps, log) => {
    const claimed = await worker.claim(deps.context.database.db, CLAIM_BATCH_MAX);
    const run = () => worker.run(deps, claimed, log);
    await (actorName === null ? run() : asSystem(actorName, run)).catch((error: unknown) => log.error({ err: error, topic }, 'outbox batch failed'));
    return claimed.length === CLAIM_BATCH_MAX;
  };
}

// Status checks one by one, each row written when its check ends; notifications are claimed with their payment and
// the merchant's sealed key, delivered side by side, and every attempt recorded by one statement for the batch.
const TOPIC_PASSES: readonly TopicPass[] = [
  topicPass('status_check', { claim: (db, batchSizeMax) => claimWork(db, 'status_check', batchSizeMax), run: runStatusChecks }, 'status-checker'),
  topicPass('notification', { claim: claimNotificationWork, run: deliverNotifications }),
  topicPass('refund_check', { claim: (db, batchSizeMax) => claimWork(db, 'refund_check', batchSizeMax), run: runRefundChecks }, 'refund-checker'),
];

async function runStatusChecks(deps: ProcessingDeps, batch: OutboxRow[], log: FastifyBaseLogger): Promise<void> {
  const db = deps.context.database.db;
  await Promise.all(
    batch.map(async (work) => {
      try {
        await runStatusCheck(deps, work, log);
      } catch (error) {
        log.error({ err: error, outboxId: work.id, topic: 'status_check' }, 'outbox work failed');
        await settleFailedWork(db, work.id, nextAfterFailure(work, error)).catch(() => {});
      }
    }),
  );
}

// A topic's batches of one pass: the first alone (an idle topic costs one claim), then, when it came back full, up to
// TOPIC_BATCHES_PER_PASS_MAX more in TOPIC_LANES lanes. True when the last batch of a lane came back full.
async function drainTopic(runPass: TopicPass, deps: ProcessingDeps, log: FastifyBaseLogger): Promise<boolean> {
  if (!(await runPass(deps, log))) return false;
  let batchesLeft = TOPIC_BATCHES_PER_PASS_MAX - 1;
  const lane = async (): Promise<boolean> => {
    let full = true;
    while (full && batchesLeft > 0) {
      batchesLeft -= 1;
      full = await runPass(deps, log);
    }
    return full;
  };
  const lanes = await Promise.all(Array.from({ length: TOPIC_LANES }, lane));
  return lanes.some((full) => full);
}

// The worker role: polls the outbox (and expiries) every poll interval; any number may run against one database.
export function startWorkers(deps: ProcessingDeps, log: FastifyBaseLogger, pollMs: number): RunningWorkers {
  let stopped = false;
  let running: Promise<void> | null = null;
  // A test clock's advance (flows/test-clocks.ts) ends the wait between passes: its payments' deadlines just moved.
  // Two passes follow at once: the first expires, voids and checks; the second sends the notifications that queued.
  let wakePasses = 0;
  let wakeUp: (() => void) | null = null;
  const wake = () => {
    wakePasses = WAKE_PASSES;
    wakeUp?.();
  };
  const watching = watchTestClockAdvances(deps.context.database, wake).catch((error: unknown) => {
    log.warn({ err: error }, 'test clock advances not watched: the workers see them at their next poll');
    return null;
  });
  const sleep = () =>
    new Promise<void>((resolve) => {
      if (wakePasses > 0) {
        resolve();
        return;
      }
      const timer = setTimeout(resolve, pollMs).unref();
      wakeUp = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wakeUp = null;
    });

  // One pass over every topic; true when a batch came back full, so more work is waiting.
  const pass = async (): Promise<boolean> => {
    let backlog = false;
    for (const runPass of TOPIC_PASSES) if (await drainTopic(runPass, deps, log)) backlog = true;
    await asSystem('expiry', () => expireDuePayments(deps, log));
    if (await deliverUserMessages(deps.context, log)) backlog = true;
    await sweepSignInRecords(deps.context).catch((error: unknown) => log.error({ err: error }, 'sign-in housekeeping failed'));
    await pruneEvents(deps, log);
    if (await asSystem('authorization-void', () => voidDueAuthorizations(deps, log))) backlog = true;
    if (await foldDailyStats(deps, log)) backlog = true;
    return backlog;
  };
  // After the loop's pass in flight (which may have claimed the work a test just queued), so that what was due when
  // tick was called has been handled when it resolves.
  const tick = async () => {
    await running;
    await pass();
  };

  const loop = async () => {
    while (!stopped) {
      if (wakePasses > 0) wakePasses -= 1;
      const pending = pass().catch((error: unknown) => {
        log.error({ err: error }, 'worker tick failed');
        return false;
      });
      running = pending.then(() => undefined);
      const backlog = await pending;
      running = null;
      if (!stopped && !backlog) await sleep();
    }
  };
  void loop();
  return {
    tick,
    stop: async () => {
      stopped = true;
      wake();
      await running;
      await (await watching)?.();
    },
  };
}
