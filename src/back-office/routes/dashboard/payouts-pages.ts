import type { FastifyInstance } from 'fastify';
import { commissionFor } from '../../../ledger/index.ts';
import { findPayments, paymentTimeline, type PaymentListResult, type PaymentRow, type StatusHistoryEntry } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { roleMay } from '../../domain/roles.ts';
import { maskedTail } from '../../domain/payout-form.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { payoutFormPage } from './payout-form-page.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { pagesNav } from './pages-nav.ts';
import { causeLabel, inferredNotice } from '../../pages/payment-timeline-sections.ts';
import { payoutTexts as T } from './texts-payouts.ts';

const PER_PAGE = 20;

interface PayoutListParams {
  dateFrom: string;
  dateTo: string;
  orderNumber: string;
  cursor: string;
}

// Payouts: the merchant API's payout list (GET /api/v1/payments?operationType=payouts: its date and order filters,
// its keyset cursor) and one payout with its status history, in the viewer's merchant and mode only.
export async function payoutsPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const { currencies } = app.payrail;
  await app.register(payoutFormPage);

  app.get('/payouts', async (request, reply) => {
    const viewer = viewerOf(request);
    const params = paramsOf(request.query);
    let found: PaymentListResult | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findPayments(db, viewer, {
        dateFrom: params.dateFrom || null,
        dateTo: params.dateTo || null,
        orderNumber: params.orderNumber || null,
        cursor: params.cursor || null,
        operationType: 'payouts',
        page: 1,
        perPage: PER_PAGE,
      });
    } catch (error) {
      problem = problemOf(error); // a filter the flow refused: shown above the form
    }
    const newLink = roleMay(viewer.role, 'payout') ? html`<p><a class="button" href="/dashboard/payouts/new">${T.newPayout}</a></p>` : '';
    const body = html`${newLink}${problem}${filterForm(params)}${found === null ? '' : results(currencies, params, found)}`;
    return memberPage(request, reply, { title: T.listTitle, area: 'payouts', body, status: found === null ? 422 : 200 });
  });

  app.get<{ Params: { token: string }; Querystring: { sent?: string } }>('/payouts/:token', async (request, reply) => {
    const viewer = viewerOf(request);
    const timeline = await paymentTimeline(db, viewer, request.params.token);
    // A payment's token is as unknown here as another merchant's.
    if (timeline.payment.operationType !== 'payout') throw new ApiError('not_found', 404, 'payout not found');
    const payout = timeline.payment;
    const sent = request.query.sent === '1' ? html`<p class="ok" role="status">${T.sent}</p>` : '';
    const body = html`${sent}${facts(currencies, payout)}${history(timeline.statusChanges)}
<p><a href="/dashboard/payments/${payout.token}">${T.exchanges}</a></p>
<p><a href="/dashboard/payouts">${T.back}</a></p>`;
    return memberPage(request, reply, { title: T.detailTitle(payout.token), area: 'payouts', body });
  });
}

function paramsOf(query: unknown): PayoutListParams {
  const text = (name: string) => formText(query, name).trim();
  return { dateFrom: text('dateFrom'), dateTo: text('dateTo'), orderNumber: text('orderNumber'), cursor: text('cursor') };
}

function listHref(params: PayoutListParams, cursor: string | null): string {
  const query = new URLSearchParams();
  for (const name of ['dateFrom', 'dateTo', 'orderNumber'] as const) if (params[name] !== '') query.set(name, params[name]);
  if (cursor !== null) query.set('cursor', cursor);
  const text = query.toString();
  return text === '' ? '/dashboard/payouts' : `/dashboard/payouts?${text}`;
}

function filterForm(params: PayoutListParams): SafeHtml {
  const field = (name: 'dateFrom' | 'dateTo' | 'orderNumber', label: string, type: string) =>
    html`<p><label for="filter-${name}">${label}</label><br><input id="filter-${name}" name="${name}" type="${type}" value="${params[name]}"></p>`;
  return html`<section aria-labelledby="filters-heading">
<h2 id="filters-heading">${T.filtersHeading}</h2>
<form method="get" action="/dashboard/payouts" class="filters">
  ${field('dateFrom', T.dateFrom, 'date')}
  ${field('dateTo', T.dateTo, 'date')}
  ${field('orderNumber', T.orderNumber, 'text')}
  <p class="filter-actions"><button type="submit">${T.apply}</button> <a href="/dashboard/payouts">${T.clear}</a></p>
</form>
</section>`;
}

function results(currencies: CurrencyTable, params: PayoutListParams, found: PaymentListResult): SafeHtml {
  const filtered = params.dateFrom !== '' || params.dateTo !== '' || params.orderNumber !== '';
  const firstPage = params.cursor === '' ? '' : html`<a href="${listHref(params, null)}">${T.firstPage}</a>`;
  if (found.rows.length === 0)
    return html`<p class="empty" role="status">${filtered || params.cursor !== '' ? T.emptyFiltered : T.empty}</p>${pagesNav(T.listTitle, firstPage, '')}`;
  const next = found.nextCursor === null ? '' : html`<a href="${listHref(params, found.nextCursor)}" rel="next">${T.nextPage}</a>`;
  return html`<p>${T.total(found.total, found.totalExact)}</p>
<div class="table-wrap"><table>
<caption>${T.caption}</caption>
<thead><tr><th scope="col">${T.columnCreated}</th><th scope="col">${T.columnToken}</th><th scope="col">${T.columnOrder}</th>
<th scope="col">${T.columnTo}</th><th scope="col">${T.columnStatus}</th><th scope="col" class="num">${T.columnAmount}</th></tr></thead>
<tbody>${found.rows.map(
    (payout) => html`<tr>
  <td><time datetime="${payout.createdAt.toISOString()}">${utcMinute(payout.createdAt)}</time></td>
  <th scope="row"><a href="/dashboard/payouts/${payout.token}"><code>${payout.token}</code></a></th>
  <td>${payout.orderNumber ?? ''}</td>
  <td>${requisiteText(payout)}</td>
  <td>${statusBadge(payout.status)}</td>
  <td class="num">${amountText(currencies, payout.amountMinor, payout.currency)}</td>
</tr>`,
  )}</tbody>
</table></div>
${pagesNav(T.listTitle, firstPage, next)}`;
}

// Where the payout went, masked: the card's first 6 / last 4, an account number's or phone's last 4 digits.
function requisiteText(payout: PaymentRow): string {
  const account = payout.bankAccount;
  switch (account?.requisiteType) {
    case 'card':
      return `${T.kindCard} ${payout.cardMask ?? ''}`.trim();
    case 'sbp':
      return `${T.kindSbp}: ${payout.customer?.phone ? maskedTail(payout.customer.phone) : ''} · ${account.bankName ?? ''}`;
    case 'account':
      return `${T.kindAccount}: ${account.accountNumber ? maskedTail(account.accountNumber) : ''} · ${account.bankName ?? ''}`;
    default:
      return '';
  }
}

function facts(currencies: CurrencyTable, payout: PaymentRow): SafeHtml {
  const commission = commissionFor(payout.amountMinor, { percentBp: payout.commissionPercentBp, fixedMinor: payout.commissionFixedMinor });
  const recipient = [payout.customer?.firstName, payout.customer?.middleName, payout.customer?.lastName].filter(Boolean).join(' ');
  const at = (date: Date | null) => (date === null ? '—' : html`<time datetime="${date.toISOString()}">${utcMinute(date)}</time>`);
  return html`<h2>${T.summaryHeading}</h2>
<dl class="facts">
  <dt>${T.status}</dt><dd>${statusBadge(payout.status)}</dd>
  <dt>${T.amount}</dt><dd>${amountText(currencies, payout.amountMinor, payout.currency)}</dd>
  <dt>${T.commission}</dt><dd>${amountText(currencies, commission, payout.currency)}</dd>
  <dt>${T.requisite}</dt><dd>${requisiteText(payout)}</dd>
  <dt>${T.recipient}</dt><dd>${[recipient, payout.customer?.email ?? ''].filter(Boolean).join(' · ')}</dd>
  <dt>${T.orderNumber}</dt><dd>${payout.orderNumber ?? ''}</dd>
  <dt>${T.token}</dt><dd><code>${payout.token}</code></dd>
  <dt>${T.gateway}</dt><dd>${payout.gatewayAlias ?? '—'}</dd>
  <dt>${T.created}</dt><dd>${at(payout.createdAt)}</dd>
  <dt>${T.finalized}</dt><dd>${at(payout.finalizedAt)}</dd>
  ${payout.declineReason ? html`<dt>${T.declineReason}</dt><dd>${payout.declineReason}</dd>` : ''}
</dl>`;
}

function history(changes: readonly StatusHistoryEntry[]): SafeHtml {
  if (changes.length === 0) return html`<h2>${T.historyHeading}</h2><p>${T.noHistory}</p>`;
  return html`<h2>${T.historyHeading}</h2>${inferredNotice(changes)}
<ol class="timeline">${changes.map(
    (change) =>
      html`<li><time datetime="${change.at.toISOString()}">${utcMinute(change.at)}</time> ${statusBadge(change.status)} · ${causeLabel(change)}${
        change.note ? html` · ${change.note}` : ''
      }</li>`,
  )}</ol>`;
}
