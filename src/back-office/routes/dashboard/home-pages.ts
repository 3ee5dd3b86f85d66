import type { FastifyInstance } from 'fastify';
import { getBalance } from '../../../ledger/index.ts';
import { readDailyStats } from '../../../payments/index.ts';
import { html } from '../../../platform/lib/html.ts';
import { viewerOf } from './guard.ts';
import { homeView, rangeOf, type HomeRange } from './home-view.ts';
import { memberPage } from './layout.ts';

// Home: balances per currency and the charts of the chosen range, from the daily aggregates (never the payments).
export async function homePages(app: FastifyInstance): Promise<void> {
  const { database, currencies } = app.payrail;

  app.get<{ Querystring: { range?: string } }>('/', async (request, reply) => {
    const viewer = viewerOf(request);
    const range: HomeRange = rangeOf(request.query.range);
    const scope = { merchantId: viewer.merchantId, environment: viewer.environment };
    const [balance, stats] = await Promise.all([
      getBalance(database.db, currencies, scope, null),
      readDailyStats(database.db, { ...scope, fromDay: range.fromDay, toDay: range.toDay }),
    ]);
    const wallets = 'wallets' in balance ? balance.wallets : [balance.wallet];
    return memberPage(request, reply, {
      title: 'Home',
      area: 'home',
      scripts: ['uplot.js', 'charts.js'],
      body: html`${homeView(currencies, range, wallets, stats)}`,
    });
  });
}
