import type { FastifyBaseLogger } from 'fastify';
import type { ProcessingDeps } from '../payments/index.ts';
import type { Db } from '../platform/database.ts';
import { claimDueNotifications } from '../payments/index.ts';
import { claimDue, completeWork, rescheduleWork, type OutboxRow, type OutboxTopic } from '../payments/index.ts';
import { voidDueAuthorizations } from './authorization-void.ts';
import { expireDuePayments } from './expiry.ts';
import { nextAfterFailure } from './failed-work.ts';
import { deliverNotifications } from './notifier.ts';
import { runRefundChecks } from './refund-checker.ts';
import { runStatusCheck } from './status-checker.ts';
import { deliverUserMessages } from './user-messages.ts';
import { sweepSignInRecords } from './sign-in-housekeeping.ts';

const CLAIM_BATCH_MAX = 50;

export interface RunningWorkers {
  stop(): Promise<void>;
  tick(): Promise<void>; // one pass over every topic, for tests
}

type Work = Pick<OutboxRow, 'id' | 'attempts'>;

interface TopicWorker<W extends Work> {
  claim(db: Db, batchSizeMax: number): Promise<W[]>; // due rows, leased to this worker
  run(deps: ProcessingDeps, batch: W[], log: FastifyBaseLogger): Promise<void>; // each row's failure handled inside
}

const topicWorker = <W extends Work>(worker: TopicWorker<W>) => worker as unknown as TopicWorker<Work>;

// Status checks one by one, each row written when its check ends; notifications are claimed with their payment and
// the merchant's sealed key, delivered side by side, and every attempt recorded by one statement for the batch.
const TOPICS: Record<OutboxTopic, TopicWorker<Work>> = {
  status_check: topicWorker({ claim: (db, batchSizeMax) => claimDue(db, 'status_check', batchSizeMax), run: runStatusChecks }),
  notification: topicWorker({ claim: claimDueNotifications, run: deliverNotifications }),
  refund_check: topicWorker({ claim: (db, batchSizeMax) => claimDue(db, 'refund_check', batchSizeMax), run: runRefundChecks }),
};

async function runStatusChecks(deps: ProcessingDeps, batch: OutboxRow[], log: FastifyBaseLogger): Promise<void> {
  const db = deps.context.database.db;
  await Promise.all(
    batch.map(async (work) => {
      try {
        await runStatusCheck(deps, work, log);
      } catch (error) {
        log.error({ err: error, outboxId: work.id, topic: 'status_check' }, 'outbox work failed');
        const next = nextAfterFailure(work, error);
        await (next.done ? completeWork(db, work.id, next.lastError) : rescheduleWork(db, work.id, next.dueAt, next.lastError)).catch(() => {});
      }
    }),
  );
}

// The worker role: polls the outbox (and expiries) every poll interval; any number may run against one database.
export function startWorkers(deps: ProcessingDeps, log: FastifyBaseLogger, pollMs: number): RunningWorkers {
  let stopped = false;
  let running: Promise<void> | null = null;
  const db = deps.context.database.db;

  // One pass over every topic; true when a batch came back full, so more work is waiting.
  const pass = async (): Promise<boolean> => {
    let backlog = false;
    for (const topic of Object.keys(TOPICS) as OutboxTopic[]) {
      const claimed = await TOPICS[topic].claim(db, CLAIM_BATCH_MAX);
      if (claimed.length === CLAIM_BATCH_MAX) backlog = true;
      // A batch that could not be written keeps its leases: its rows are claimed again once they lapse.
      await TOPICS[topic].run(deps, claimed, log).catch((error: unknown) => log.error({ err: error, topic }, 'outbox batch failed'));
    }
    await expireDuePayments(deps, log);
    if (await deliverUserMessages(deps.context, log)) backlog = true;
    await sweepSignInRecords(deps.context).catch((error: unknown) => log.error({ err: error }, 'sign-in housekeeping failed'));
    if (await voidDueAuthorizations(deps, log)) backlog = true;
    return backlog;
  };
  const tick = async () => {
    await pass();
  };

  const loop = async () => {
    while (!stopped) {
      const pending = pass().catch((error: unknown) => {
        log.error({ err: error }, 'worker tick failed');
        return false;
      });
      running = pending.then(() => undefined);
      const backlog = await pending;
      running = null;
      if (!stopped && !backlog) await new Promise((resolve) => setTimeout(resolve, pollMs).unref());
    }
  };
  void loop();
  return {
    tick,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}
