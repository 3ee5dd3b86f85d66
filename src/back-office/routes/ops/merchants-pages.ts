import type { FastifyInstance } from 'fastify';
import { findMerchantsPage, type MerchantSearchPage } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import type { SafeHtml } from '../../../platform/lib/html.ts';
import { operatorMay } from '../../domain/operator-roles.ts';
import { operatorMerchantView } from '../../flows/ops-merchants.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { merchantAccountPages } from './merchants-account-pages.ts';
import { merchantCommissionsPages } from './merchants-commissions-pages.ts';
import { merchantDetailView } from './merchants-detail-view.ts';
import { merchantsListView } from './merchants-list-view.ts';
import { doneNotice, recordIdOf } from './merchants-params.ts';
import { merchantReviewPages } from './merchants-review-pages.ts';

const MERCHANT_DONE_NOTICES: Readonly<Record<string, string>> = {
  approved: 'Approved: the merchant may issue its production key in the dashboard.',
  rejected: 'Rejected: the merchant’s members see the reason in the dashboard.',
  enabled: 'Enabled: the merchant’s keys work again.',
  disabled: 'Disabled: the merchant’s keys are refused from now on.',
  renamed: 'Display name saved: the checkout shows it from now on.',
  commissions: 'Commissions saved: payments created from now on use them.',
};

// The console's merchants: the list with its search and review queue, one merchant's page, and its actions (review,
// status, display name, keys, commissions), each through the admin API's flows.
export async function merchantsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  app.get('/merchants', async (request, reply) => {
    requireOperatorAction(request, 'merchants.read');
    const search = { q: formText(request.query, 'q'), review: formText(request.query, 'review'), cursor: formText(request.query, 'cursor') };
    let found: MerchantSearchPage | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findMerchantsPage(db, search);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 422) throw error;
      problem = problemOf(error);
    }
    const title = search.review === 'pending_review' ? 'Merchants waiting for review' : 'Merchants';
    return opsPage(request, reply, { title, area: 'merchants', status: problem === '' ? 200 : 400, body: merchantsListView(search, found, problem) });
  });

  app.get<{ Params: { id: string } }>('/merchants/:id', async (request, reply) => {
    const operator = requireOperatorAction(request, 'merchants.read');
    const view = await operatorMerchantView(app.payrail, recordIdOf(request.params.id), operatorMay(operator.role, 'commissions.read'));
    const body = merchantDetailView(request, operator, view, doneNotice(request.query, MERCHANT_DONE_NOTICES));
    return opsPage(request, reply, { title: `Merchant #${view.merchant.id}: ${view.merchant.name}`, area: 'merchants', body });
  });

  await app.register(merchantReviewPages);
  await app.register(merchantAccountPages);
  await app.register(merchantCommissionsPages);
}
