import type { FastifyRequest } from 'fastify';
import type { ConflictRecord } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { statusBadge } from '../../pages/status-badge.ts';

// The console's conflicts queue: late provider reports that contradicted a payment's final status, each with its
// payment and, while nobody has decided it, the admin API's two decisions (accept, dismiss).

export interface ConflictsParams {
  state: 'unresolved' | 'all';
  page: number;
}

export interface ConflictsPage {
  rows: ConflictRecord[];
  totalCount: number;
  unresolvedCount: number;
  perPage: number;
}

export const CONFLICT_DONE_TEXTS = {
  accepted: 'The conflict is accepted: the payment moved to the reported status, with its posting and the merchant’s notification.',
  dismissed: 'The conflict is dismissed: the payment keeps its status.',
} as const;

export function conflictsView(request: FastifyRequest, params: ConflictsParams, found: ConflictsPage, notice: SafeHtml | ''): SafeHtml {
  const option = (value: string, label: string) => html`<option value="${value}"${params.state === value ? html` selected` : ''}>${label}</option>`;
  return html`${notice}
<p>${found.unresolvedCount} waiting for a decision. A gateway whose enable_change_final_status is off keeps a final status when its provider
later reports otherwise; the report waits here. Accept applies it through the state machine; dismiss keeps the status.</p>
<form method="get" action="/ops/conflicts" class="filters" aria-label="Filter">
<p><label for="filter-state">Show</label><br><select id="filter-state" name="state">${option('unresolved', 'Waiting for a decision')}${option('all', 'All conflicts')}</select></p>
<p class="filter-actions"><button type="submit">Apply</button></p>
</form>
${found.rows.length === 0 ? html`<p class="empty" role="status">No conflict ${params.state === 'unresolved' ? 'waits for a decision' : 'was recorded'}.</p>` : table(request, found)}
${pagesOf(params, found)}`;
}

function table(request: FastifyRequest, found: ConflictsPage): SafeHtml {
  return html`<div class="table-wrap"><table>
<caption>Conflicts, newest first</caption>
<thead><tr><th scope="col">Recorded</th><th scope="col">Payment</th><th scope="col">Merchant</th><th scope="col">Source</th>
<th scope="col">Kept → reported</th><th scope="col">Status now</th><th scope="col">Report</th><th scope="col">Decision</th></tr></thead>
<tbody>${found.rows.map((conflict) => row(request, conflict))}</tbody>
</table></div>`;
}

function row(request: FastifyRequest, conflict: ConflictRecord): SafeHtml {
  const reported = conflict.reportedAmountMinor === null ? '' : `${conflict.reportedAmountMinor} (minor units) ${conflict.reportedCurrency ?? ''}`;
  return html`<tr>
  <td><time datetime="${conflict.createdAt.toISOString()}">${utcMinute(conflict.createdAt)}</time></td>
  <th scope="row"><a href="/ops/payments/${conflict.paymentToken}"><code>${conflict.paymentToken}</code></a></th>
  <td><a href="/ops/merchants/${conflict.merchantId}">#${conflict.merchantId}</a> · ${conflict.environment === 'production' ? 'live' : 'test'}</td>
  <td>${conflict.source === 'callback' ? 'callback' : 'status check'}</td>
  <td>${statusBadge(conflict.paymentStatus)} → ${statusBadge(conflict.reportedStatus)}</td>
  <td>${statusBadge(conflict.currentStatus)}</td>
  <td>${reported}<details><summary>Answer</summary><pre class="exchange">${JSON.stringify(conflict.rawAnswer, null, 2)}</pre></details></td>
  <td>${decisionOf(request, conflict)}</td>
</tr>`;
}

function decisionOf(request: FastifyRequest, conflict: ConflictRecord): SafeHtml {
  if (conflict.resolution !== null) {
    return html`${conflict.resolution} by ${conflict.resolvedBy ?? '?'}${conflict.resolvedAt === null ? '' : html`, <time datetime="${conflict.resolvedAt.toISOString()}">${utcMinute(conflict.resolvedAt)}</time>`}`;
  }
  return html`<form method="post" action="/ops/conflicts/${String(conflict.id)}/resolve" class="inline" data-once>
  ${csrfField(request)}
  <button type="submit" name="action" value="accept" data-confirm="Move the payment to ${conflict.reportedStatus}?">Accept ${conflict.reportedStatus}</button>
  <button type="submit" name="action" value="dismiss" class="secondary">Dismiss</button>
</form>`;
}

function pagesOf(params: ConflictsParams, found: ConflictsPage): SafeHtml | '' {
  const href = (page: number) => `/ops/conflicts?${new URLSearchParams({ state: params.state, page: String(page) }).toString()}`;
  const firstPage = params.page === 1 ? '' : html`<a href="${href(1)}">First page</a>`;
  const next = params.page * found.perPage < found.totalCount ? html`<a href="${href(params.page + 1)}" rel="next">Next page</a>` : '';
  return firstPage === '' && next === '' ? '' : html`<nav aria-label="Conflicts" class="pages">${firstPage} ${next}</nav>`;
}
