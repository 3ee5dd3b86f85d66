import type { FastifyInstance } from 'fastify';
import {
  commissionsEarnedPerDay,
  type CommissionsEarned,
  type LedgerEnvironment,
  listMerchantBalances,
  type MerchantBalancePage,
} from '../../../ledger/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import type { SafeHtml } from '../../../platform/lib/html.ts';
import { runLedgerCheck } from '../../flows/ops-ledger.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { balancesView, type BalancesQuery, checkView, commissionsView, type CommissionsQuery } from './ledger-views.ts';

const BALANCES_PER_PAGE = 100;
const DEFAULT_COMMISSION_DAYS = 30;
const DAY_MS = 86_400_000;

// The ledger (role ledger): every merchant's balances, the commissions earned per day, and the ledger check on
// demand (the admin API's checkLedger, GET /api/admin/v1/ledger/check), its violations linked to what they name.
export async function ledgerPages(app: FastifyInstance): Promise<void> {
  const { database, currencies } = app.payrail;
  const db = database.db;

  app.get<{ Querystring: { merchant?: string; after?: string } }>('/ledger', async (request, reply) => {
    const operator = requireOperatorAction(request, 'ledger');
    const query: BalancesQuery = { merchant: (request.query.merchant ?? '').trim(), after: request.query.after ?? '' };
    let problem: SafeHtml | '' = '';
    let found: MerchantBalancePage = { balances: [], nextCursor: null };
    try {
      const merchantId = /^[0-9]{1,15}$/.test(query.merchant) ? Number(query.merchant) : null;
      found = await listMerchantBalances(db, { merchantId, cursor: query.after === '' ? null : query.after, limit: BALANCES_PER_PAGE });
    } catch (error) {
      problem = problemOf(error);
    }
    const body = balancesView(request, operator, currencies, query, found, problem);
    return opsPage(request, reply, { title: 'Ledger', area: 'ledger', status: problem ? 400 : 200, body });
  });

  app.get<{ Querystring: { environment?: string; from?: string; to?: string } }>('/ledger/commissions', async (request, reply) => {
    requireOperatorAction(request, 'ledger');
    const today = new Date().toISOString().slice(0, 10);
    const query: CommissionsQuery = {
      environment: request.query.environment === 'sandbox' ? 'sandbox' : ('production' satisfies LedgerEnvironment),
      from: request.query.from ?? new Date(Date.now() - (DEFAULT_COMMISSION_DAYS - 1) * DAY_MS).toISOString().slice(0, 10),
      to: request.query.to ?? today,
    };
    let problem: SafeHtml | '' = '';
    let earned: CommissionsEarned | null = null;
    try {
      earned = await commissionsEarnedPerDay(db, { environment: query.environment, fromDay: query.from, toDay: query.to });
    } catch (error) {
      problem = problemOf(error);
    }
    const body = commissionsView(currencies, query, earned, problem);
    return opsPage(request, reply, { title: 'Commissions earned', area: 'ledger', status: problem ? 400 : 200, body });
  });

  app.post('/ledger/check', async (request, reply) => {
    requireOperatorAction(request, 'ledger');
    setAuditAction('ledger.check');
    const run = await runLedgerCheck(db);
    return opsPage(request, reply, { title: 'Ledger check', area: 'ledger', body: checkView(request, currencies, run) });
  });
}
