import type { FastifyInstance } from 'fastify';
import { sendDocument } from '../../../platform/lib/document-download.ts';
import {
  DISPUTE_STATUSES,
  DOCUMENT_COUNT_MAX,
  findMerchantDisputes,
  readDisputeDocument,
  type DisputeListResult,
  type DisputeStatus,
} from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { DocumentStore } from '../../../platform/lib/document-store.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { showDispute, type DisputePageContext } from './dispute-detail-view.ts';
import { disputeEvidenceUpload } from './dispute-evidence-upload.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { pagesNav } from './pages-nav.ts';
import { disputeTexts as T } from './texts-payouts.ts';

const PER_PAGE = 20;

// Disputes: the merchant API's dispute list (status filter, keyset cursor), one dispute with its status history and
// documents, each document's download, and the evidence upload (dispute-evidence-upload.ts).
export async function disputesPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const { currencies, config } = app.payrail;
  const context: DisputePageContext = {
    deps: { db, documents: new DocumentStore(config.disputeDocumentsDir) },
    currencies,
    evidenceQuotaBytes: config.disputeEvidenceQuotaBytes,
  };
  await app.register(disputeEvidenceUpload, { context });

  app.get('/disputes', async (request, reply) => {
    const viewer = viewerOf(request);
    const statusText = formText(request.query, 'status');
    const status = DISPUTE_STATUSES.find((known) => known === statusText) ?? null;
    const cursor = formText(request.query, 'cursor').trim();
    let found: DisputeListResult | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findMerchantDisputes(db, viewer, { status, cursor: cursor === '' ? null : cursor, perPage: PER_PAGE });
    } catch (error) {
      problem = problemOf(error); // a cursor the flow refused
    }
    const body = html`${problem}${filterForm(status)}${found === null ? '' : results(currencies, status, cursor, found)}`;
    return memberPage(request, reply, { title: T.listTitle, area: 'disputes', body, status: found === null ? 422 : 200 });
  });

  app.get<{ Params: { token: string }; Querystring: { added?: string } }>('/disputes/:token', async (request, reply) => {
    const added = Number(request.query.added ?? '0'); // after an upload: how many documents it added
    const notice = Number.isInteger(added) && added > 0 && added <= DOCUMENT_COUNT_MAX ? T.uploaded(added) : null;
    return showDispute(context, request, reply, request.params.token, { notice, problem: null, status: 200 });
  });

  app.get<{ Params: { token: string; id: string } }>('/disputes/:token/documents/:id', async (request, reply) => {
    const viewer = viewerOf(request);
    const id = /^[1-9][0-9]{0,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
    if (!Number.isSafeInteger(id)) throw new ApiError('not_found', 404, 'document not found');
    const download = await readDisputeDocument(context.deps, { scope: viewer }, request.params.token, id);
    return sendDocument(reply, download);
  });
}

function listHref(status: DisputeStatus | null, cursor: string | null): string {
  const query = new URLSearchParams();
  if (status !== null) query.set('status', status);
  if (cursor !== null) query.set('cursor', cursor);
  const text = query.toString();
  return text === '' ? '/dashboard/disputes' : `/dashboard/disputes?${text}`;
}

function filterForm(status: DisputeStatus | null): SafeHtml {
  return html`<form method="get" action="/dashboard/disputes" class="inline filters" aria-label="${T.filtersHeading}">
<p><label for="filter-status">${T.statusFilter}</label><br><select id="filter-status" name="status">
  <option value=""${status === null ? html` selected` : ''}>${T.anyStatus}</option>
  ${DISPUTE_STATUSES.map((known) => html`<option value="${known}"${known === status ? html` selected` : ''}>${known}</option>`)}
</select></p>
<p><button type="submit">${T.apply}</button></p>
</form>`;
}

function results(currencies: CurrencyTable, status: DisputeStatus | null, cursor: string, found: DisputeListResult): SafeHtml {
  const firstPage = cursor === '' ? '' : html`<a href="${listHref(status, null)}">${T.firstPage}</a>`;
  if (found.rows.length === 0) {
    return html`<p class="empty" role="status">${status === null && cursor === '' ? T.empty : T.emptyFiltered}</p>${pagesNav(T.listTitle, firstPage, '')}`;
  }
  const next = found.nextCursor === null ? '' : html`<a href="${listHref(status, found.nextCursor)}" rel="next">${T.nextPage}</a>`;
  return html`<div class="table-wrap"><table>
<caption>${T.caption}</caption>
<thead><tr><th scope="col">${T.columnOpened}</th><th scope="col">${T.columnToken}</th><th scope="col">${T.columnPayment}</th>
<th scope="col">${T.columnStatus}</th><th scope="col" class="num">${T.columnAmount}</th><th scope="col" class="num">${T.columnDocuments}</th></tr></thead>
<tbody>${found.rows.map(
    (dispute) => html`<tr>
  <td><time datetime="${dispute.createdAt.toISOString()}">${utcMinute(dispute.createdAt)}</time></td>
  <th scope="row"><a href="/dashboard/disputes/${dispute.token}"><code>${dispute.token}</code></a></th>
  <td><a href="/dashboard/payments/${dispute.paymentToken}"><code>${dispute.paymentToken}</code></a></td>
  <td>${statusBadge(dispute.status)}</td>
  <td class="num">${amountText(currencies, dispute.amountMinor, dispute.currency)}</td>
  <td class="num">${dispute.documents.length}</td>
</tr>`,
  )}</tbody>
</table></div>
${pagesNav(T.listTitle, firstPage, next)}`;
}
