import type { FastifyBaseLogger } from 'fastify';
import { Gauge, type Registry } from 'prom-client';
import { checkLedger, outboxBacklog, type OutboxBacklog } from '../../payments/index.ts';
import type { Db } from '../database.ts';

const LEDGER_CHECK_INTERVAL_MS = 5 * 60_000; // the check reads every balance: at most every five minutes
const TOPICS = ['status_check', 'notification', 'refund_check'] as const;

// The gauges read from the database: the outbox's backlog on each scrape, and the ledger check's violations,
// refreshed by a periodic check in the worker role.
export function registerOutboxGauges(registry: Registry, db: Db): void {
  // The registry collects every metric of a scrape at once (prom-client: Promise.all over its metrics): the gauges
  // share the one query in flight, and a later scrape queries again.
  let inFlight: Promise<OutboxBacklog[]> | null = null;
  const backlog = (): Promise<OutboxBacklog[]> => {
    inFlight ??= outboxBacklog(db).finally(() => {
      inFlight = null;
    });
    return inFlight;
  };
  const byTopic = (name: string, help: string, readValue: (row: OutboxBacklog, now: number) => number) =>
    new Gauge({
      name,
      help,
      labelNames: ['topic'] as const,
      registers: [registry],
      async collect() {
        const rows = await backlog();
        const now = Date.now();
        for (const topic of TOPICS)
          this.set({ topic }, readValue(rows.find((each) => each.topic === topic) ?? { topic, open: 0, due: 0, oldestDueAt: null }, now));
      },
    });
  byTopic('payrail_outbox_open_rows', 'Outbox rows not done, due or not, by topic', (row) => row.open);
  byTopic('payrail_outbox_due_rows', 'Outbox rows due and not done (waiting for a worker), by topic', (row) => row.due);
  byTopic('payrail_outbox_oldest_due_age_seconds', 'How long the longest-waiting due outbox row has waited, by topic', (row, now) =>
    row.oldestDueAt === null ? 0 : Math.max(0, (now - row.oldestDueAt.getTime()) / 1000),
  );
  new Gauge({
    name: 'payrail_status_checks_due',
    help: 'Status checks due now and not yet made',
    registers: [registry],
    async collect() {
      this.set((await backlog()).find((row) => row.topic === 'status_check')?.due ?? 0);
    },
  });
}

// Runs the ledger check now and every interval; a scrape before the first run has ended waits for it.
export function startLedgerChecks(registry: Registry, db: Db, log: FastifyBaseLogger, intervalMs = LEDGER_CHECK_INTERVAL_MS): () => Promise<void> {
  let first: Promise<void> | null = null;
  const violations = new Gauge({
    name: 'payrail_ledger_check_violations',
    help: 'Violations the last ledger check found (capped per rule)',
    registers: [registry],
    async collect() {
      await first;
    },
  });
  const overdrawn = new Gauge({
    name: 'payrail_ledger_check_overdrawn_wallets',
    help: 'Overdrawn wallets the last ledger check listed',
    registers: [registry],
  });
  const lastRun = new Gauge({ name: 'payrail_ledger_check_last_success_timestamp_seconds', help: 'When the last ledger check ended', registers: [registry] });
  let running: Promise<void> | null = null;
  const check = async () => {
    try {
      const found = await checkLedger(db);
      violations.set(found.violations.length);
      overdrawn.set(found.overdrawn.length);
      lastRun.set(Date.now() / 1000);
    } catch (error) {
      log.error({ err: error }, 'ledger check for the metrics failed');
    }
  };
  const run = (): Promise<void> => {
    running ??= check().finally(() => {
      running = null;
    });
    return running;
  };
  first = run();
  const timer = setInterval(() => void run(), intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
