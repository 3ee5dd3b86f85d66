import type { FastifyRequest } from 'fastify';
import type { ReconciliationOutcome, ReconciliationWithGateway, ReportItem } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { timeText } from './page-values.ts';

// The console's reconciliation pages: the imports (newest first) with the import form, and one import's summary and
// items by outcome. Amounts are shown as the report holds them, in minor units.

export const OUTCOME_LABELS: Readonly<Record<ReconciliationOutcome, string>> = {
  matched: 'Matched',
  missing_in_payrail: 'In the file, not in Payrail',
  missing_in_file: 'In Payrail, not in the file',
  amount_mismatch: 'Amount differs',
  currency_mismatch: 'Currency differs',
  status_mismatch: 'Status differs',
  duplicate_in_file: 'Twice in the file',
};

export function reconciliationsView(
  request: FastifyRequest,
  rows: readonly ReconciliationWithGateway[],
  nextCursor: string | null,
  notice: SafeHtml | '',
): SafeHtml {
  const action = `/ops/reconciliations?${new URLSearchParams({ _csrf: request.csrfToken }).toString()}`;
  return html`${notice}
<p>A provider's settlement file, read with the column mapping saved with its gateway (admin API
<code>PUT /api/admin/v1/gateways/{id}/settlement-columns</code> or <code>payrail gateway settlement-columns</code>), against the
gateway's payments. The same file twice shows the first import.</p>
<h2 id="import-heading">Import a settlement file</h2>
<form method="post" action="${action}" enctype="multipart/form-data" class="stack" aria-labelledby="import-heading" data-once>
<label for="import-gateway">Gateway id</label>
<input id="import-gateway" name="gatewayId" inputmode="numeric" pattern="[1-9][0-9]{0,15}" required>
<label for="import-file">CSV file (at most 200 MiB)</label>
<input id="import-file" name="file" type="file" accept=".csv,text/csv" required>
<button type="submit">Import and reconcile</button>
</form>
<h2>Imports</h2>
${rows.length === 0 ? html`<p class="empty" role="status">No settlement file was imported yet.</p>` : listTable(rows)}
${nextCursor === null ? '' : html`<nav aria-label="Imports" class="pages"><a href="/ops/reconciliations?cursor=${nextCursor}" rel="next">Older imports</a></nav>`}`;
}

function listTable(rows: readonly ReconciliationWithGateway[]): SafeHtml {
  return html`<div class="table-wrap"><table>
<caption>Imports, newest first</caption>
<thead><tr><th scope="col">Imported</th><th scope="col">Reconciliation</th><th scope="col">Gateway</th><th scope="col">File</th>
<th scope="col">Status</th><th scope="col" class="num">Lines</th><th scope="col" class="num">Matched</th><th scope="col" class="num">Not matched</th></tr></thead>
<tbody>${rows.map(listRow)}</tbody>
</table></div>`;
}

function countsOf(reconciliation: ReconciliationWithGateway): Record<string, number> | null {
  const counts = reconciliation.summary?.['counts'];
  return typeof counts === 'object' && counts !== null ? (counts as Record<string, number>) : null;
}

function listRow(reconciliation: ReconciliationWithGateway): SafeHtml {
  const counts = countsOf(reconciliation);
  const matched = counts?.['matched'] ?? null;
  const total = counts === null ? null : Object.values(counts).reduce((sum, count) => sum + count, 0);
  return html`<tr>
  <td>${timeText(reconciliation.createdAt)}</td>
  <th scope="row"><a href="/ops/reconciliations/${reconciliation.token}"><code>${reconciliation.token}</code></a></th>
  <td>#${String(reconciliation.gatewayId)} ${reconciliation.gatewayAlias} · <a href="/ops/merchants/${String(reconciliation.merchantId)}">merchant #${String(reconciliation.merchantId)}</a></td>
  <td>${reconciliation.fileName ?? ''}</td>
  <td>${reconciliation.status}${reconciliation.error === null ? '' : html`: ${reconciliation.error}`}</td>
  <td class="num">${String(reconciliation.lineCount)}</td>
  <td class="num">${matched === null ? '—' : String(matched)}</td>
  <td class="num">${total === null || matched === null ? '—' : String(total - matched)}</td>
</tr>`;
}

export interface ItemsShown {
  outcome: ReconciliationOutcome | null;
  items: readonly ReportItem[];
  nextCursor: string | null;
}

export function reconciliationView(reconciliation: ReconciliationWithGateway, shown: ItemsShown | null): SafeHtml {
  const counts = countsOf(reconciliation);
  const fees = Array.isArray(reconciliation.summary?.['fees']) ? (reconciliation.summary['fees'] as Record<string, string | number>[]) : [];
  const base = `/ops/reconciliations/${reconciliation.token}`;
  return html`<dl class="facts">
<dt>Gateway</dt><dd>#${String(reconciliation.gatewayId)} ${reconciliation.gatewayAlias} (${reconciliation.environment}), merchant #${String(reconciliation.merchantId)}</dd>
<dt>File</dt><dd>${reconciliation.fileName ?? ''} · ${String(reconciliation.lineCount)} lines</dd>
<dt>Period</dt><dd>${timeText(reconciliation.periodFrom)} – ${timeText(reconciliation.periodTo)}</dd>
<dt>Status</dt><dd>${reconciliation.status}${reconciliation.error === null ? '' : html`: ${reconciliation.error}`}</dd>
<dt>Imported</dt><dd>${timeText(reconciliation.createdAt)} by ${reconciliation.createdBy ?? '?'}</dd>
</dl>
${
  counts === null
    ? ''
    : html`<h2>Outcomes</h2><ul class="outcomes">${Object.entries(OUTCOME_LABELS).map(
        ([outcome, label]) => html`<li><a href="${base}?outcome=${outcome}">${label}</a>: ${String(counts[outcome] ?? 0)}</li>`,
      )}</ul>
<p><a href="${base}/report.csv" download>Download the report (CSV)</a></p>`
}
${fees.length === 0 ? '' : feesTable(fees)}
${shown === null ? '' : itemsTable(base, shown)}`;
}

function feesTable(fees: readonly Record<string, string | number>[]): SafeHtml {
  return html`<div class="table-wrap"><table>
<caption>Provider fees against Payrail's commissions (minor units)</caption>
<thead><tr><th scope="col">Currency</th><th scope="col" class="num">File fees</th><th scope="col" class="num">On matched payments</th>
<th scope="col" class="num">Payrail commission</th><th scope="col" class="num">Difference</th></tr></thead>
<tbody>${fees.map(
    (fee) => html`<tr><th scope="row">${String(fee['currency'])}</th><td class="num">${String(fee['file_fee_minor'])}</td>
<td class="num">${String(fee['matched_file_fee_minor'])}</td><td class="num">${String(fee['payrail_commission_minor'])}</td>
<td class="num">${String(fee['difference_minor'])}</td></tr>`,
  )}</tbody>
</table></div>`;
}

function itemsTable(base: string, shown: ItemsShown): SafeHtml {
  const caption = shown.outcome === null ? 'Items in file order' : OUTCOME_LABELS[shown.outcome];
  const next =
    shown.nextCursor === null
      ? ''
      : html`<nav aria-label="Items" class="pages"><a href="${base}?${new URLSearchParams({ ...(shown.outcome === null ? {} : { outcome: shown.outcome }), cursor: shown.nextCursor }).toString()}" rel="next">Next items</a></nav>`;
  return html`<div class="table-wrap"><table>
<caption>${caption}</caption>
<thead><tr><th scope="col" class="num">Line</th><th scope="col">Outcome</th><th scope="col">Gateway token</th><th scope="col">File</th><th scope="col">Payrail</th></tr></thead>
<tbody>${shown.items.map(
    (
      item,
    ) => html`<tr><td class="num">${item.lineNumber === null ? '—' : String(item.lineNumber)}</td><td>${item.outcome === null ? '' : OUTCOME_LABELS[item.outcome]}</td>
<td><code>${item.gatewayToken ?? ''}</code></td>
<td>${item.fileAmountMinor === null ? '' : `${item.fileAmountMinor} ${item.fileCurrency ?? ''} · ${item.fileStatus ?? ''}`}</td>
<td>${item.paymentToken === null ? '—' : html`<a href="/ops/payments/${item.paymentToken}"><code>${item.paymentToken}</code></a> ${String(item.paymentAmountMinor)} ${item.paymentCurrency ?? ''} · ${item.paymentStatus ?? ''}`}</td></tr>`,
  )}</tbody>
</table></div>
${next}`;
}
