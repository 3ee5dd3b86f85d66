import type { FastifyInstance } from 'fastify';
import { commissionFor } from '../../../ledger/index.ts';
import { findMerchantRefunds, getRefund, type RefundListResult, type RefundRow } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { pagesNav } from './pages-nav.ts';
import { refundTexts as T } from './texts-payouts.ts';

const PER_PAGE = 20;

// Refunds: every refund of the merchant's payments in the viewer's mode, newest first (keyset pages), and one
// refund with its payment, status and decline reason. Refunds are made from a payment's page.
export async function refundsPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const { currencies } = app.payrail;

  app.get('/refunds', async (request, reply) => {
    const viewer = viewerOf(request);
    const cursor = formText(request.query, 'cursor').trim();
    let found: RefundListResult | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findMerchantRefunds(db, viewer, { cursor: cursor === '' ? null : cursor, perPage: PER_PAGE });
    } catch (error) {
      problem = problemOf(error); // a cursor the flow refused
    }
    const firstPage = cursor === '' ? '' : html`<a href="/dashboard/refunds">${T.firstPage}</a>`;
    const body = html`${problem}${found === null ? html`${pagesNav(T.listTitle, firstPage, '')}` : results(currencies, found, firstPage)}`;
    return memberPage(request, reply, { title: T.listTitle, area: 'refunds', body, status: found === null ? 422 : 200 });
  });

  app.get<{ Params: { token: string } }>('/refunds/:token', async (request, reply) => {
    const viewer = viewerOf(request);
    const { paymentToken, refund } = await getRefund(db, viewer, request.params.token);
    const body = html`${refund.status === 'pending' ? html`<p role="status">${T.pendingNote}</p>` : ''}
${facts(currencies, refund, paymentToken)}
<p><a href="/dashboard/refunds">${T.back}</a></p>`;
    return memberPage(request, reply, { title: T.detailTitle(refund.token), area: 'refunds', body });
  });
}

function results(currencies: CurrencyTable, found: RefundListResult, firstPage: SafeHtml | ''): SafeHtml {
  if (found.rows.length === 0) return html`<p class="empty" role="status">${T.empty}</p>${pagesNav(T.listTitle, firstPage, '')}`;
  const next = found.nextCursor === null ? '' : html`<a href="/dashboard/refunds?cursor=${found.nextCursor}" rel="next">${T.nextPage}</a>`;
  return html`<div class="table-wrap"><table>
<caption>${T.caption}</caption>
<thead><tr><th scope="col">${T.columnCreated}</th><th scope="col">${T.columnToken}</th><th scope="col">${T.columnPayment}</th>
<th scope="col">${T.columnStatus}</th><th scope="col" class="num">${T.columnAmount}</th></tr></thead>
<tbody>${found.rows.map(
    (refund) => html`<tr>
  <td><time datetime="${refund.createdAt.toISOString()}">${utcMinute(refund.createdAt)}</time></td>
  <th scope="row"><a href="/dashboard/refunds/${refund.token}"><code>${refund.token}</code></a></th>
  <td><a href="/dashboard/payments/${refund.paymentToken}"><code>${refund.paymentToken}</code></a></td>
  <td>${statusBadge(refund.status)}</td>
  <td class="num">${amountText(currencies, refund.amountMinor, refund.currency)}</td>
</tr>`,
  )}</tbody>
</table></div>
${pagesNav(T.listTitle, firstPage, next)}`;
}

function facts(currencies: CurrencyTable, refund: RefundRow, paymentToken: string): SafeHtml {
  const commission = commissionFor(refund.amountMinor, { percentBp: refund.commissionPercentBp, fixedMinor: refund.commissionFixedMinor });
  const at = (date: Date | null) => (date === null ? '—' : html`<time datetime="${date.toISOString()}">${utcMinute(date)}</time>`);
  return html`<dl class="facts">
  <dt>${T.status}</dt><dd>${statusBadge(refund.status)}</dd>
  <dt>${T.amount}</dt><dd>${amountText(currencies, refund.amountMinor, refund.currency)}</dd>
  <dt>${T.commission}</dt><dd>${amountText(currencies, commission, refund.currency)}</dd>
  <dt>${T.payment}</dt><dd><a href="/dashboard/payments/${paymentToken}"><code>${paymentToken}</code></a></dd>
  <dt>${T.token}</dt><dd><code>${refund.token}</code></dd>
  <dt>${T.created}</dt><dd>${at(refund.createdAt)}</dd>
  <dt>${T.finalized}</dt><dd>${at(refund.finalizedAt)}</dd>
  ${refund.declineReason ? html`<dt>${T.declineReason}</dt><dd>${refund.declineReason}</dd>` : ''}
</dl>`;
}
