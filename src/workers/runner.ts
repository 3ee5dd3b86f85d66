import type { FastifyBaseLogger } from 'fastify';
import type { ProcessingDeps } from '../flows/process-payment.ts';
import { claimDue, completeWork, rescheduleWork, type OutboxRow, type OutboxTopic } from '../store/processing-repo.ts';
import { expireDuePayments } from './expiry.ts';
import { deliverNotification } from './notifier.ts';
import { runStatusCheck } from './status-checker.ts';

const CLAIM_BATCH_MAX = 50;
const FAILED_WORK_RETRY_MS = 30_000;
const FAILED_WORK_ATTEMPTS_MAX = 1000; // a row that keeps throwing is closed, with its error, after this many claims

export interface RunningWorkers {
  stop(): Promise<void>;
  tick(): Promise<void>; // one pass over every topic, for tests
}

const HANDLERS: Record<OutboxTopic, (deps: ProcessingDeps, work: OutboxRow) => Promise<void>> = {
  status_check: runStatusCheck,
  notification: deliverNotification,
};

// The worker role: polls the outbox (and expiries) every poll interval; any number may run against one database.
export function startWorkers(deps: ProcessingDeps, log: FastifyBaseLogger, pollMs: number): RunningWorkers {
  let stopped = false;
  let running: Promise<void> | null = null;
  const db = deps.context.database.db;

  const runOne = async (topic: OutboxTopic, work: OutboxRow) => {
    try {
      await HANDLERS[topic](deps, work);
    } catch (error) {
      log.error({ err: error, outboxId: work.id, topic }, 'outbox work failed');
      const message = (error as Error).message;
      const closing = work.attempts >= FAILED_WORK_ATTEMPTS_MAX;
      await (closing ? completeWork(db, work.id, `gave up: ${message}`) : rescheduleWork(db, work.id, new Date(Date.now() + FAILED_WORK_RETRY_MS), message)).catch(() => {});
    }
  };

  // One pass over every topic; true when a batch came back full, so more work is waiting.
  const pass = async (): Promise<boolean> => {
    let backlog = false;
    for (const topic of Object.keys(HANDLERS) as OutboxTopic[]) {
      const claimed = await claimDue(db, topic, CLAIM_BATCH_MAX);
      if (claimed.length === CLAIM_BATCH_MAX) backlog = true;
      await Promise.all(claimed.map((work) => runOne(topic, work)));
    }
    await expireDuePayments(db);
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
