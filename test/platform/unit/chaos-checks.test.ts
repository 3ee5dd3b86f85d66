import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runChecks, type Evidence } from '../../../bench/chaos/checks.ts';
import { Cluster } from '../../../bench/chaos/cluster.ts';
import { startCountingProxy, type CountingProxy } from '../../../bench/chaos/counting-proxy.ts';
import type { LoadFigures } from '../../../bench/chaos/load.ts';
import type { Notification } from '../../../bench/chaos/receiver.ts';
import type { PaymentView } from '../../../bench/chaos/state.ts';
import { loadTls, type TlsMaterial } from '../../../src/platform/lib/tls.ts';

// The chaos run's checks fail on the failures they are there for (npm run chaos, RELIABILITY.md), and its counting
// proxy counts what Payrail sends to the adapter.

const NOW = Date.parse('2026-01-01T12:00:00Z');
const T1 = 'a'.repeat(32);
const T2 = 'b'.repeat(32);
const R1 = 'c'.repeat(32);

let dataDir: string;
let tls: TlsMaterial;
let proxy: CountingProxy;
let agent: Agent;
const clusters: Cluster[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'payrail-chaos-checks-'));
  tls = await loadTls(dataDir, null, null);
  proxy = await startCountingProxy(tls, 'https://127.0.0.1:1'); // nothing listens there: every call is answered 502
  agent = new Agent({ connect: { ca: tls.cert } });
});
afterAll(async () => {
  await agent?.close();
  await proxy?.close();
  for (const cluster of clusters) await cluster.stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

const adapterCall = async (body: unknown) => {
  const response = await request(`https://127.0.0.1:${proxy.port}/sandbox-adapter/x`, { method: 'POST', body: JSON.stringify(body), dispatcher: agent });
  await response.body.dump();
  return response.statusCode;
};

function payment(overrides: Partial<PaymentView>): PaymentView {
  return {
    token: T1,
    operationType: 'pay',
    orderNumber: 'order-1',
    status: 'approved',
    amount: 1000,
    capturedAmount: 1000,
    refundedAmount: 0,
    createdAt: NOW - 120_000,
    expiresAt: NOW - 60_000,
    refunds: [],
    lastLog: 'null',
    ...overrides,
  };
}

function notification(token: string, status: string, type = 'pay'): Notification {
  return { token, type, status, paymentToken: null, eventId: null, at: NOW, answered: 200 };
}

function cleanLoad(): LoadFigures {
  return {
    creates: [{ kind: 'h2h', orderNumber: 'order-1', card: '4242424242424242', token: T1, answered: 200, code: '' }],
    refunds: [],
    retried: 0,
    failures: { resets: 0, timeouts: 0, serverErrors: 0, inUse: 0 },
    abandoned3ds: 0,
    leftToExpire: 0,
  };
}

function evidence(overrides: Partial<Evidence>, idleProxy: CountingProxy): Evidence {
  const cluster = new Cluster({ cwd: '.', dataDir, env: {}, ca: tls.cert });
  clusters.push(cluster);
  cluster.kills = 1;
  cluster.windows.push({ member: 'api-1', from: NOW - 100_000, to: NOW - 90_000, duringStartUp: true });
  return {
    load: cleanLoad(),
    payments: [payment({})],
    notifications: [notification(T1, 'approved')],
    proxy: idleProxy,
    cluster,
    serverErrors: [],
    ledger: { status: 200, body: { success: true, violations: [], overdrawn: [] } },
    now: NOW,
    scheduleSlackMs: 30_000,
    openLifetimeMs: 60_000,
    killsRequested: 1,
    ...overrides,
  };
}

const noCalls: CountingProxy = {
  port: 0,
  calls: [],
  byMethod: () => ({}),
  duplicates: () => [],
  refundTokensByPayment: () => new Map(),
  close: async () => {},
};

const failing = (checks: ReturnType<typeof runChecks>) => checks.filter((check) => !check.passed).map((check) => `${check.name}: ${check.detail}`);

describe('the chaos checks', () => {
  it('pass a run where everything held', () => {
    expect(failing(runChecks(evidence({}, noCalls)))).toEqual([]);
  });

  it('fail an approval whose notification said refunded (the body built at delivery, not at the event)', () => {
    const refunded = payment({
      status: 'refunded',
      refundedAmount: 1000,
      refunds: [{ token: R1, amount: 1000, status: 'approved', createdAt: NOW - 100_000 }],
    });
    const load = { ...cleanLoad(), refunds: [{ paymentToken: T1, style: 'whole' as const, token: R1, answered: 200, code: '' }] };
    const notifications = [notification(T1, 'refunded'), notification(T1, 'refunded'), notification(R1, 'approved', 'refund')];
    expect(failing(runChecks(evidence({ payments: [refunded], load, notifications }, noCalls)))).toEqual([
      expect.stringMatching(/^every final payment, payout and refund notified with its own status: 1: .*never notified approved/),
    ]);
  });

  it('fail two different final statuses told for one payment, and a final payment never notified', () => {
    const declined = payment({ token: T2, orderNumber: 'order-2', status: 'declined', capturedAmount: null });
    const load = {
      ...cleanLoad(),
      creates: [...cleanLoad().creates, { kind: 'h2h' as const, orderNumber: 'order-2', card: '', token: T2, answered: 200, code: '' }],
    };
    const notifications = [notification(T1, 'approved'), notification(T1, 'declined')];
    expect(failing(runChecks(evidence({ payments: [payment({}), declined], load, notifications }, noCalls)))).toEqual([
      expect.stringMatching(new RegExp(`^every final payment.*: 1: pay ${T2} declined: got \\[\\]`)),
      expect.stringMatching(new RegExp(`^never two different final statuses for one payment: 1: ${T1}: approved and declined`)),
    ]);
  });

  it('fail a retry that created a second payment or a second refund', () => {
    const twice = [payment({}), payment({ token: T2 })];
    const notifications = [notification(T1, 'approved'), notification(T2, 'approved')];
    expect(failing(runChecks(evidence({ payments: twice, notifications }, noCalls)))).toEqual([
      expect.stringMatching(/^one create per operation.*2 rows for order order-1/),
    ]);
  });

  it('fail a lost acknowledged create, an item stuck past its lifetime, refunds above captured and a dirty ledger', () => {
    const stuck = payment({ status: 'pending', capturedAmount: null, expiresAt: NOW - 31_000 });
    const overRefunded = payment({ token: T2, orderNumber: 'order-2', refundedAmount: 1200, status: 'refunded' });
    const checks = runChecks(
      evidence(
        {
          payments: [stuck, overRefunded],
          load: {
            ...cleanLoad(),
            creates: [...cleanLoad().creates, { kind: 'hosted', orderNumber: 'order-3', card: '', token: 'f'.repeat(32), answered: 200, code: '' }],
          },
          notifications: [notification(T2, 'approved'), notification(T2, 'refunded')],
          ledger: { status: 200, body: { success: false, violations: [{ account: 'available' }], overdrawn: [] } },
        },
        noCalls,
      ),
    );
    expect(failing(checks).map((line) => line.split(':')[0])).toEqual([
      'every acknowledged create exists',
      'nothing stuck past its lifetime plus schedule',
      'refunds ≤ captured per payment',
      'the ledger check is clean',
    ]);
  });

  it('excuse a 5xx inside a kill window only, and fail a run without the kills asked for', () => {
    const serverErrors = [
      { status: 502, method: 'POST', path: '/api/v1/payments', from: NOW - 95_000, to: NOW - 94_000, code: 'adapter_unavailable', requestId: 'r1' },
      { status: 500, method: 'GET', path: '/api/v1/payments/:token', from: NOW - 10_000, to: NOW - 9_000, code: 'internal_error', requestId: 'r2' },
    ];
    expect(failing(runChecks(evidence({ serverErrors, killsRequested: 20 }, noCalls)))).toEqual([
      'at least 20 kill -9, some during start-up: 1: 1 kill -9 of 20 asked for',
      'no 5xx outside kill windows: 1: 500 internal_error GET /api/v1/payments/:token (request r2)',
    ]);
  });
});

describe('the counting proxy', () => {
  it('counts a second /pay of one payment and more refund tokens than refunds asked for; /status and a re-sent refund may repeat', async () => {
    const settings = { sandbox: true };
    expect(await adapterCall({ method_name: 'pay', payment: { token: T1 }, settings })).toBe(502);
    await adapterCall({ method_name: 'pay', payment: { token: T1 }, settings });
    await adapterCall({ method_name: 'status', payment: { token: T1 }, settings });
    await adapterCall({ method_name: 'status', payment: { token: T1 }, settings });
    await adapterCall({ method_name: 'refund', payment: { token: T2 }, refund: { token: R1, amount: 5 }, settings });
    await adapterCall({ method_name: 'refund', payment: { token: T2 }, refund: { token: R1, amount: 5 }, settings });
    await adapterCall({ method_name: 'refund', payment: { token: T2 }, refund: { token: 'd'.repeat(32), amount: 5 }, settings });
    expect(proxy.byMethod()).toEqual({ pay: 2, status: 2, refund: 3 });
    expect(proxy.duplicates()).toEqual([{ operation: `pay ${T1}`, count: 2 }]);

    // The one refund asked for got no definite answer (its retries ran out), so nothing was acknowledged.
    const load = { ...cleanLoad(), refunds: [{ paymentToken: T2, style: 'partial' as const, token: null, answered: null, code: '' }] };
    const checks = runChecks(evidence({ load }, proxy));
    expect(failing(checks)).toEqual([
      `no duplicate adapter calls for one operation: 2: pay ${T1} ×2; refund of ${T2}: 2 refund tokens at the adapter from 1 requests`,
    ]);
  });
});
