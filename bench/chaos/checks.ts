import type { Cluster } from './cluster.ts';
import type { ServerError } from './client.ts';
import type { CountingProxy } from './counting-proxy.ts';
import type { LoadFigures } from './load.ts';
import type { Notification } from './receiver.ts';
import { deadlineOf, FINAL_PAYMENT_STATUSES, FINAL_REFUND_STATUSES, type PaymentView } from './state.ts';

// The checks of a chaos run, each over everything the run produced; a failing check names its first examples.

export interface Check {
  name: string;
  passed: boolean;
  detail: string;
}

export interface Evidence {
  load: LoadFigures;
  payments: PaymentView[];
  notifications: Notification[];
  proxy: CountingProxy;
  cluster: Cluster;
  serverErrors: ServerError[];
  ledger: { status: number; body: Record<string, unknown> };
  now: number;
  scheduleSlackMs: number;
  openLifetimeMs: number;
  killsRequested: number;
}

const EXAMPLES_MAX = 5;

function check(name: string, problems: string[], passedDetail: string): Check {
  const shown = problems.slice(0, EXAMPLES_MAX).join('; ');
  return { name, passed: problems.length === 0, detail: problems.length === 0 ? passedDetail : `${problems.length}: ${shown}` };
}

export function runChecks(evidence: Evidence): Check[] {
  return [
    faultsInjected(evidence),
    acknowledgedCreatesExist(evidence),
    oneCreatePerOperation(evidence),
    nothingStuck(evidence),
    finalsNotified(evidence),
    oneFinalStatusPerPayment(evidence),
    noDuplicateAdapterCalls(evidence),
    refundsWithinCaptured(evidence),
    ledgerClean(evidence),
    no5xxOutsideKillWindows(evidence),
  ];
}

// The run proves nothing unless its faults happened: the kills asked for, some of them during a start-up.
function faultsInjected({ cluster, killsRequested }: Evidence): Check {
  const duringStartUp = cluster.windows.filter((window) => window.duringStartUp).length;
  const problems: string[] = [];
  if (cluster.kills < killsRequested) problems.push(`${cluster.kills} kill -9 of ${killsRequested} asked for`);
  if (killsRequested >= 3 && duringStartUp === 0) problems.push('no kill during a start-up');
  return check(`at least ${killsRequested} kill -9, some during start-up`, problems, `${cluster.kills} kills, ${duringStartUp} during start-up`);
}

function acknowledgedCreatesExist({ load, payments }: Evidence): Check {
  const tokens = new Set(payments.map((payment) => payment.token));
  const refundTokens = new Set(payments.flatMap((payment) => payment.refunds.map((refund) => refund.token)));
  const problems = [
    ...load.creates.filter((create) => create.token !== null && !tokens.has(create.token)).map((create) => `${create.kind} ${create.token} missing`),
    ...load.refunds.filter((refund) => refund.token !== null && !refundTokens.has(refund.token)).map((refund) => `refund ${refund.token} missing`),
  ];
  const acknowledged = load.creates.filter((create) => create.token !== null).length + load.refunds.filter((refund) => refund.token !== null).length;
  return check('every acknowledged create exists', problems, `${acknowledged} acknowledged, all found`);
}

// A retry with the same Idempotency-Key never runs the request again: one payment or payout per order number (each
// operation has its own), and no more refunds of a payment than refund requests were made for it.
function oneCreatePerOperation({ load, payments }: Evidence): Check {
  const problems: string[] = [];
  const byOrder = new Map<string, number>();
  for (const payment of payments) if (payment.orderNumber !== null) byOrder.set(payment.orderNumber, (byOrder.get(payment.orderNumber) ?? 0) + 1);
  for (const [order, count] of byOrder) if (count > 1) problems.push(`${count} rows for order ${order}`);
  const requested = refundRequestsByPayment(load);
  for (const payment of payments) {
    const made = requested.get(payment.token) ?? 0;
    if (payment.refunds.length > made) problems.push(`payment ${payment.token}: ${payment.refunds.length} refunds from ${made} requests`);
  }
  return check('one create per operation (retries replay)', problems, `${byOrder.size} orders, ${load.refunds.length} refund requests`);
}

function nothingStuck({ payments, now, scheduleSlackMs, openLifetimeMs }: Evidence): Check {
  const problems: string[] = [];
  for (const payment of payments) {
    const overdue = now > deadlineOf(payment, scheduleSlackMs, openLifetimeMs);
    if (!FINAL_PAYMENT_STATUSES.has(payment.status) && overdue)
      problems.push(`${payment.operationType} ${payment.token} still ${payment.status} (last log ${payment.lastLog})`);
    for (const refund of payment.refunds) {
      if (!FINAL_REFUND_STATUSES.has(refund.status) && now > refund.createdAt + openLifetimeMs + scheduleSlackMs) {
        problems.push(`refund ${refund.token} still ${refund.status}`);
      }
    }
  }
  return check('nothing stuck past its lifetime plus schedule', problems, 'every overdue item is final');
}

// Every final payment, payout and refund was notified with its own status; a payment that captured money was also
// notified approved (a refund after it does not replace that event).
function finalsNotified({ payments, notifications }: Evidence): Check {
  const statusesOf = new Map<string, Set<string>>();
  for (const notification of notifications) {
    const key = `${notification.type === 'refund' ? 'refund' : 'payment'} ${notification.token}`;
    const statuses = statusesOf.get(key) ?? new Set<string>();
    statuses.add(notification.status);
    statusesOf.set(key, statuses);
  }
  const problems: string[] = [];
  for (const payment of payments) {
    if (FINAL_PAYMENT_STATUSES.has(payment.status)) {
      const got = statusesOf.get(`payment ${payment.token}`) ?? new Set<string>();
      if (!got.has(payment.status)) problems.push(`${payment.operationType} ${payment.token} ${payment.status}: got [${[...got].join(',')}]`);
      if ((payment.capturedAmount ?? 0) > 0 && payment.operationType === 'pay' && !got.has('approved')) {
        problems.push(`pay ${payment.token} captured ${payment.capturedAmount} (${payment.status}): never notified approved, got [${[...got].join(',')}]`);
      }
    }
    for (const refund of payment.refunds) {
      if (!FINAL_REFUND_STATUSES.has(refund.status)) continue;
      const got = statusesOf.get(`refund ${refund.token}`) ?? new Set<string>();
      if (!got.has(refund.status)) problems.push(`refund ${refund.token} ${refund.status}: got [${[...got].join(',')}]`);
    }
  }
  return check('every final payment, payout and refund notified with its own status', problems, `${notifications.length} notifications received`);
}

// approved then refunded is one history; any other two final statuses for one payment contradict each other.
function oneFinalStatusPerPayment({ notifications }: Evidence): Check {
  const finals = new Map<string, Set<string>>();
  for (const notification of notifications) {
    if (notification.type !== 'pay' && notification.type !== 'payout') continue;
    if (!FINAL_PAYMENT_STATUSES.has(notification.status) || notification.status === 'refunded') continue;
    const statuses = finals.get(notification.token) ?? new Set<string>();
    statuses.add(notification.status);
    finals.set(notification.token, statuses);
  }
  const problems = [...finals].filter(([, statuses]) => statuses.size > 1).map(([token, statuses]) => `${token}: ${[...statuses].join(' and ')}`);
  return check('never two different final statuses for one payment', problems, `${finals.size} payments notified final`);
}

// Counted at the proxy, before the adapter: one /pay (payout, capture, void) per payment, and no more refund tokens
// reaching the acquirer for a payment than refunds the merchant asked for.
function noDuplicateAdapterCalls({ proxy, load }: Evidence): Check {
  const problems = proxy.duplicates().map((duplicate) => `${duplicate.operation} ×${duplicate.count}`);
  const requested = refundRequestsByPayment(load);
  for (const [paymentToken, refundTokens] of proxy.refundTokensByPayment()) {
    const made = requested.get(paymentToken) ?? 0;
    if (refundTokens.size > made) problems.push(`refund of ${paymentToken}: ${refundTokens.size} refund tokens at the adapter from ${made} requests`);
  }
  return check('no duplicate adapter calls for one operation', problems, `${proxy.calls.length} adapter calls counted`);
}

function refundRequestsByPayment(load: LoadFigures): Map<string, number> {
  const requested = new Map<string, number>();
  for (const refund of load.refunds) requested.set(refund.paymentToken, (requested.get(refund.paymentToken) ?? 0) + 1);
  return requested;
}

function refundsWithinCaptured({ payments }: Evidence): Check {
  const problems: string[] = [];
  for (const payment of payments) {
    const approved = payment.refunds.filter((refund) => refund.status === 'approved').reduce((sum, refund) => sum + refund.amount, 0);
    const captured = payment.capturedAmount ?? 0;
    if (approved > captured || payment.refundedAmount > captured) {
      problems.push(`${payment.token}: refunded ${Math.max(approved, payment.refundedAmount)} of ${captured} captured`);
    }
  }
  return check('refunds ≤ captured per payment', problems, `${payments.filter((payment) => payment.refunds.length > 0).length} payments with refunds`);
}

function ledgerClean({ ledger }: Evidence): Check {
  const violations = (ledger.body['violations'] as unknown[] | undefined) ?? [];
  const overdrawn = (ledger.body['overdrawn'] as unknown[] | undefined) ?? [];
  const problems: string[] = [];
  if (ledger.status !== 200) problems.push(`ledger check answered HTTP ${ledger.status}`);
  else if (ledger.body['success'] !== true || violations.length > 0 || overdrawn.length > 0) {
    problems.push(JSON.stringify({ violations: violations.slice(0, 3), overdrawn: overdrawn.slice(0, 3) }).slice(0, 600));
  }
  return check('the ledger check is clean', problems, 'no violations, nothing overdrawn');
}

function no5xxOutsideKillWindows({ serverErrors, cluster }: Evidence): Check {
  const outside = serverErrors.filter((error) => !cluster.insideKillWindow(error.from, error.to));
  const problems = outside.map((error) => `${error.status} ${error.code} ${error.method} ${error.path} (request ${error.requestId})`);
  return check('no 5xx outside kill windows', problems, `${serverErrors.length} inside kill windows`);
}

export function outsideKillWindows(serverErrors: ServerError[], cluster: Cluster): number {
  return serverErrors.filter((error) => !cluster.insideKillWindow(error.from, error.to)).length;
}
