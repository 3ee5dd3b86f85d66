import type { FastifyRequest } from 'fastify';
import { DISPUTE_NOTE_LENGTH_MAX, DISPUTE_STATUSES, type DisputeDetail, type DisputeListResult } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { statusBadge } from '../../pages/status-badge.ts';

// The console's disputes queue and one dispute's page: every merchant's, with the operator's moves (review, resolve).

export const QUEUE_FILTERS = ['waiting', 'all', ...DISPUTE_STATUSES] as const; // waiting: open and under review
export type QueueFilter = (typeof QUEUE_FILTERS)[number];

export interface QueueParams {
  filter: QueueFilter;
  merchantId: string;
  environment: string;
  cursor: string;
}

const FILTER_LABELS: Readonly<Record<QueueFilter, string>> = {
  waiting: 'Waiting for a decision (open, under review)',
  all: 'Every status',
  open: 'open',
  under_review: 'under review',
  won: 'won',
  lost: 'lost',
};

export const DISPUTE_DONE_TEXTS = {
  reviewed: 'The dispute is under review; the merchant is notified.',
  won: 'The dispute is resolved as won: the held amount is back in the merchant’s available balance; the merchant is notified.',
  lost: 'The dispute is resolved as lost: the held amount goes to the customer; the merchant is notified.',
} as const;

export function queueView(currencies: CurrencyTable, params: QueueParams, found: DisputeListResult | null, problem: SafeHtml | ''): SafeHtml {
  return html`${problem}${filterForm(params)}${found === null ? '' : queueTable(currencies, params, found)}`;
}

function filterForm(params: QueueParams): SafeHtml {
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form method="get" action="/ops/disputes" class="filters" aria-label="Filter">
<p><label for="filter-status">Status</label><br><select id="filter-status" name="status">
  ${QUEUE_FILTERS.map((filter) => option(filter, FILTER_LABELS[filter], filter === params.filter))}
</select></p>
<p><label for="filter-merchant">Merchant id</label><br><input id="filter-merchant" name="merchantId" type="text" inputmode="numeric" maxlength="16" value="${params.merchantId}"></p>
<p><label for="filter-environment">Mode</label><br><select id="filter-environment" name="environment">
  ${option('', 'Live and test', params.environment === '')}
  ${option('production', 'Live', params.environment === 'production')}
  ${option('sandbox', 'Test (sandbox)', params.environment === 'sandbox')}
</select></p>
<p class="filter-actions"><button type="submit">Apply</button> <a href="/ops/disputes">Clear</a></p>
</form>`;
}

function queueTable(currencies: CurrencyTable, params: QueueParams, found: DisputeListResult): SafeHtml {
  const firstPage = params.cursor === '' ? '' : html`<a href="${queueHref(params, null)}">First page</a>`;
  const next = found.nextCursor === null ? '' : html`<a href="${queueHref(params, found.nextCursor)}" rel="next">Next page</a>`;
  const pages = firstPage === '' && next === '' ? '' : html`<nav aria-label="Disputes" class="pages">${firstPage} ${next}</nav>`;
  if (found.rows.length === 0) return html`<p class="empty" role="status">No dispute matches these filters.</p>${pages}`;
  return html`<div class="table-wrap"><table>
<caption>Disputes, newest first</caption>
<thead><tr><th scope="col">Opened</th><th scope="col">Dispute</th><th scope="col">Merchant</th><th scope="col">Mode</th><th scope="col">Payment</th>
<th scope="col">Status</th><th scope="col" class="num">Amount</th><th scope="col" class="num">Documents</th></tr></thead>
<tbody>${found.rows.map(
    (dispute) => html`<tr>
  <td><time datetime="${dispute.createdAt.toISOString()}">${utcMinute(dispute.createdAt)}</time></td>
  <th scope="row"><a href="/ops/disputes/${dispute.token}"><code>${dispute.token}</code></a></th>
  <td><a href="/ops/merchants/${dispute.merchantId}">#${dispute.merchantId}</a></td>
  <td>${dispute.environment === 'production' ? 'live' : 'test'}</td>
  <td><a href="/ops/payments/${dispute.paymentToken}"><code>${dispute.paymentToken}</code></a></td>
  <td>${statusBadge(dispute.status)}</td>
  <td class="num">${amountText(currencies, dispute.amountMinor, dispute.currency)}</td>
  <td class="num">${dispute.documents.length}</td>
</tr>`,
  )}</tbody>
</table></div>
${pages}`;
}

function queueHref(params: QueueParams, cursor: string | null): string {
  const query = new URLSearchParams({ status: params.filter });
  if (params.merchantId !== '') query.set('merchantId', params.merchantId);
  if (params.environment !== '') query.set('environment', params.environment);
  if (cursor !== null) query.set('cursor', cursor);
  return `/ops/disputes?${query.toString()}`;
}

// One dispute: its facts, its history, its evidence (each document downloadable), and the moves its status admits.
// typedNote: the note of a resolve the flow refused, shown again.
export function disputeView(request: FastifyRequest, currencies: CurrencyTable, detail: DisputeDetail, notice: SafeHtml | '', typedNote = ''): SafeHtml {
  const { dispute } = detail;
  const at = (date: Date | null) => (date === null ? '—' : html`<time datetime="${date.toISOString()}">${utcMinute(date)}</time>`);
  return html`<p><a href="/ops/disputes">← The disputes queue</a></p>
${notice}
<dl class="facts">
  <dt>Status</dt><dd>${statusBadge(dispute.status)}</dd>
  <dt>Disputed amount</dt><dd>${amountText(currencies, dispute.amountMinor, dispute.currency)}</dd>
  <dt>Merchant</dt><dd><a href="/ops/merchants/${dispute.merchantId}">#${dispute.merchantId}</a> · ${dispute.environment === 'production' ? 'live' : 'test'}</dd>
  <dt>Payment</dt><dd><a href="/ops/payments/${dispute.paymentToken}"><code>${dispute.paymentToken}</code></a></dd>
  <dt>Token</dt><dd><code>${dispute.token}</code></dd>
  <dt>Description</dt><dd class="prewrap">${dispute.description}</dd>
  <dt>Opened</dt><dd>${at(dispute.createdAt)}</dd>
  <dt>Resolved</dt><dd>${at(dispute.resolvedAt)}</dd>
  ${dispute.resolutionNote ? html`<dt>Resolution note</dt><dd class="prewrap">${dispute.resolutionNote}</dd>` : ''}
</dl>
<h2>Status history</h2>
<ol class="timeline">${detail.history.map((event) => {
    const occurred = new Date(event.occurredAt);
    return html`<li><time datetime="${event.occurredAt}">${Number.isNaN(occurred.getTime()) ? event.occurredAt : utcMinute(occurred)}</time> ${statusBadge(event.status)}</li>`;
  })}</ol>
${documentsOf(detail)}
${movesOf(request, detail, typedNote)}`;
}

function documentsOf({ dispute }: DisputeDetail): SafeHtml {
  if (dispute.documents.length === 0) return html`<h2>Evidence</h2><p class="empty">The merchant has attached no document.</p>`;
  return html`<h2>Evidence</h2>
<div class="table-wrap"><table>
<caption>Documents of this dispute</caption>
<thead><tr><th scope="col">File</th><th scope="col">Type</th><th scope="col" class="num">Size (bytes)</th><th scope="col">Added</th><th scope="col">SHA-256</th></tr></thead>
<tbody>${dispute.documents.map(
    (document) => html`<tr>
  <th scope="row"><a href="/ops/disputes/${dispute.token}/documents/${document.id}" download>${document.fileName}</a></th>
  <td>${document.mediaType}</td>
  <td class="num">${document.sizeBytes}</td>
  <td><time datetime="${document.createdAt.toISOString()}">${utcMinute(document.createdAt)}</time></td>
  <td><code>${document.sha256}</code></td>
</tr>`,
  )}</tbody>
</table></div>`;
}

// The moves of domain/dispute-status.ts: review takes an open dispute; resolve an open or reviewed one.
function movesOf(request: FastifyRequest, { dispute }: DisputeDetail, typedNote: string): SafeHtml {
  if (dispute.status === 'won' || dispute.status === 'lost') return html`<p class="note">This dispute is resolved: it moves no more.</p>`;
  const review =
    dispute.status === 'open'
      ? html`<form method="post" action="/ops/disputes/${dispute.token}/review" class="inline" data-once>
  ${csrfField(request)}<button type="submit" class="secondary">Put under review</button>
</form>`
      : '';
  return html`<h2 id="decide-heading">Decide</h2>
${review}
<form method="post" action="/ops/disputes/${dispute.token}/resolve" class="stack" aria-labelledby="decide-heading" data-once>
  ${csrfField(request)}
  <fieldset><legend>Outcome</legend>
    <label><input type="radio" name="outcome" value="won" required> Won: the held amount goes back to the merchant’s available balance</label>
    <label><input type="radio" name="outcome" value="lost" required> Lost: the held amount goes to the customer</label>
  </fieldset>
  <label for="resolve-note">Note to the merchant (optional)</label>
  <textarea id="resolve-note" name="note" rows="4" maxlength="${String(DISPUTE_NOTE_LENGTH_MAX)}">${typedNote}</textarea>
  <button type="submit" class="danger" data-confirm="Resolve this dispute? The outcome is final.">Resolve</button>
</form>`;
}
