// The operations `npm run bench:cost` measures, and a runner sending exactly N of them (the load of `npm run bench`
// runs for a duration instead). The bodies and seeds are the ones of `npm run bench` (measure.ts, h2h.ts,
// money-movements.ts), so both benchmarks measure the same requests.
import { randomUUID } from 'node:crypto';
import { request } from 'undici';
import type { NotificationReceiver } from './h2h.ts';
import { h2hWorkload } from './h2h.ts';
import { CREATE_WORKLOAD, type ServerSession, type Workload } from './measure.ts';
import { payoutWorkload, refundWorkload } from './money-movements.ts';

const FAILURE_BODY_CHARS_MAX = 300;

export interface CostKind {
  name: string;
  label: string;
  workload: Workload;
  idempotencyKeys: boolean; // a fresh Idempotency-Key on every request, as a merchant following the spec sends
  notifies: boolean; // every operation ends in a merchant notification the worker delivers
}

const isSuccess = (body: string) => {
  try {
    return (JSON.parse(body) as { success?: unknown }).success === true;
  } catch {
    return false;
  }
};

export function costKinds(receiver: NotificationReceiver): CostKind[] {
  const h2h = h2hWorkload(receiver);
  return [
    {
      name: 'create',
      label: 'create (variant A, redirect, answered init)',
      workload: { ...CREATE_WORKLOAD, expectedBody: isSuccess },
      idempotencyKeys: true,
      notifies: false,
    },
    { name: 'h2h', label: 'Host-to-Host approved + notification', workload: h2h, idempotencyKeys: true, notifies: true },
    { name: 'h2h-no-key', label: 'Host-to-Host approved + notification, no Idempotency-Key', workload: h2h, idempotencyKeys: false, notifies: true },
    { name: 'refund', label: 'refund (partial, approved) + notification', workload: refundWorkload(receiver.url), idempotencyKeys: true, notifies: true },
    { name: 'payout', label: 'payout (card, approved) + notification', workload: payoutWorkload(receiver.url), idempotencyKeys: true, notifies: true },
  ];
}

export interface OperationsRun {
  seconds: number;
  failures: number;
  firstFailure: string | null;
}

// Sends `count` requests, `concurrency` at a time, over the session's keep-alive pool.
export async function runOperations(
  session: ServerSession,
  kind: CostKind,
  nextBody: (() => string) | null,
  count: number,
  concurrency: number,
): Promise<OperationsRun> {
  const url = `${session.url}${kind.workload.path ?? '/api/v1/payments'}`;
  const expected = kind.workload.expectedBody ?? isSuccess;
  let next = 0;
  let failures = 0;
  let firstFailure: string | null = null;
  const loop = async () => {
    while (next < count) {
      next += 1;
      const headers: Record<string, string> = { authorization: `Bearer ${session.merchantKey}`, 'content-type': 'application/json' };
      if (kind.idempotencyKeys) headers['idempotency-key'] = randomUUID();
      try {
        const response = await request(url, { method: 'POST', dispatcher: session.agent, headers, body: nextBody ? nextBody() : kind.workload.body });
        const text = await response.body.text();
        if (response.statusCode !== 200 || !expected(text)) {
          failures += 1;
          firstFailure ??= `${response.statusCode} ${text.slice(0, FAILURE_BODY_CHARS_MAX)}`;
        }
      } catch (error) {
        failures += 1;
        firstFailure ??= (error as Error).message;
      }
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, loop));
  return { seconds: (performance.now() - started) / 1000, failures, firstFailure };
}
