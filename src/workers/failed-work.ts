import type { OutboxRow } from '../payments/index.ts';

const FAILED_WORK_RETRY_MS = 30_000;
const FAILED_WORK_ATTEMPTS_MAX = 1000; // a row that keeps throwing is closed, with its error, after this many claims

export type FailedWorkNext = { done: true; lastError: string } | { done: false; dueAt: Date; lastError: string };

// An outbox row whose handler threw: tried again later, or closed with its error once it has kept failing.
export function nextAfterFailure(work: Pick<OutboxRow, 'attempts'>, error: unknown): FailedWorkNext {
  const message = error instanceof Error ? error.message : String(error);
  if (work.attempts >= FAILED_WORK_ATTEMPTS_MAX) return { done: true, lastError: `gave up: ${message}` };
  return { done: false, dueAt: new Date(Date.now() + FAILED_WORK_RETRY_MS), lastError: message };
}
