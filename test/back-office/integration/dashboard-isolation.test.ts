import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { sandboxRecords, type MoneyOutRecords } from './money-out-fixtures.ts';

const engines = await testEngines();

interface DashboardRoute {
  path: string;
  methods: string[];
}

// Every route of the app as Fastify lists it (printRoutes' tree, each line a path piece under its parent).
function routesOf(tree: string): DashboardRoute[] {
  const stack: { depth: number; path: string }[] = [];
  const routes: DashboardRoute[] = [];
  for (const line of tree.split('\n')) {
    const match = /^([│ ]*)(?:├── |└── )(.+?) \(([A-Z, ]+)\)$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length;
    while (stack.length > 0 && stack.at(-1)!.depth >= depth) stack.pop();
    const path = `${stack.at(-1)?.path ?? ''}${match[2]}`.replace(/\/\/+/g, '/');
    stack.push({ depth, path });
    routes.push({ path, methods: match[3]!.split(', ').filter((method) => method !== 'HEAD') });
  }
  return routes;
}

// The whole class, not one page: every dashboard address that names a record is tried with another merchant's
// records (and with the other environment's), by a member whose role may do everything. A page added later is in
// the sweep without a line here, as long as its parameters are named like these.
describe.each(engines)('no dashboard address reaches another merchant’s or environment’s records, on %s', (engine) => {
  let harness: Harness;
  let victim: DashboardClient;
  let records: MoneyOutRecords;
  let routes: DashboardRoute[];

  beforeAll(async () => {
    harness = await startHarness(engine);
    victim = await signedInMember(harness, { role: 'owner' });
    records = await sandboxRecords(harness, victim.merchant);
    routes = routesOf(harness.app.printRoutes({ commonPrefix: false })).filter(
      (route) => route.path.startsWith('/dashboard/') && /:(token|id)\b/.test(route.path),
    );
  });
  afterAll(async () => harness.close());

  const tokenFor = (path: string) => {
    if (path.startsWith('/dashboard/payouts/')) return records.payoutToken;
    if (path.startsWith('/dashboard/refunds/')) return records.refundToken;
    if (path.startsWith('/dashboard/disputes/')) return records.disputeToken;
    return records.paymentToken;
  };
  const addressOf = (path: string, victimSessionId: string) =>
    path
      .replace(':token', tokenFor(path))
      .replace(':environment', 'sandbox')
      .replace(':id', path.includes('/documents/') ? String(records.documentId) : path.includes('/sessions/') ? victimSessionId : String(victim.memberId));

  it('lists the record addresses it sweeps', () => {
    const paths = routes.map((route) => route.path);
    for (const expected of [
      '/dashboard/payments/:token',
      '/dashboard/payouts/:token',
      '/dashboard/refunds/:token',
      '/dashboard/disputes/:token/documents/:id',
    ]) {
      expect(paths).toContain(expected);
    }
    expect(routes.length).toBeGreaterThanOrEqual(14);
  });

  it('answers 404 to a member of another merchant, for every method, and changes nothing', async () => {
    const intruder = await signedInMember(harness, { role: 'owner' });
    const settings = await victim.get('/dashboard/settings');
    const victimSessionId = /sessions\/([0-9]+)\/revoke/.exec(settings.body)?.[1] ?? '1';
    for (const route of routes) {
      for (const method of route.methods) {
        const address = addressOf(route.path, victimSessionId);
        const answer = method === 'GET' ? await intruder.get(address) : await intruder.post(address, { amount: '1.00', role: 'viewer' });
        expect(answer.statusCode, `${method} ${address}`).toBe(404);
      }
    }
    expect((await victim.get(`/dashboard/payments/${records.paymentToken}`)).body).toContain(records.refundToken); // still one refund, still reachable
    expect((await victim.get('/dashboard/settings')).statusCode).toBe(200); // the victim's session and role stand
  });

  it('answers 404 to the same merchant’s member in the other environment', async () => {
    const live = await signedInMember(harness, { role: 'owner', merchant: victim.merchant, environment: 'production' });
    const settings = await live.get('/dashboard/settings');
    const ownSessionId = /sessions\/([0-9]+)\/revoke/.exec(settings.body)?.[1] ?? '1';
    for (const route of routes.filter((candidate) => !candidate.path.includes('/settings/'))) {
      const address = addressOf(route.path, ownSessionId);
      if (!route.methods.includes('GET')) continue;
      expect((await live.get(address)).statusCode, `GET ${address} in live mode`).toBe(404);
    }
  });

  // What every signed-in member may do whatever the role: their own session, their second factor, the mode switch;
  // and the pages of someone not signed in.
  const ANY_MEMBER = /^\/dashboard\/(logout|mode|settings\/sessions\/:id\/revoke|settings\/totp|login(\/code)?|signup|confirm|reset(\/complete)?|invite)$/;

  it('refuses every state-changing address to a viewer with 403, its own record or not', async () => {
    const viewer = await signedInMember(harness, { role: 'viewer', merchant: victim.merchant });
    const all = routesOf(harness.app.printRoutes({ commonPrefix: false })).filter((route) => route.path.startsWith('/dashboard/'));
    const changing = all.filter((route) => route.methods.includes('POST') && !ANY_MEMBER.test(route.path));
    expect(changing.length).toBeGreaterThanOrEqual(15);
    for (const route of changing) {
      const address = addressOf(route.path, '1');
      const answer = await viewer.post(address, { amount: '1.00', role: 'owner', email: 'x@shop.example', displayName: 'x' });
      expect(answer.statusCode, `POST ${address}`).toBe(403);
    }
  });
});
