import { PAYMENT_STATUSES, type OperatorPaymentSearchResult, type OperatorPaymentSearchText, type PaymentRow } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { formText } from '../../pages/machinery.ts';
import { statusBadge } from '../../pages/status-badge.ts';

// The console's payment search: one thing a person holds (what `by` names) in `value`, narrowed by merchant, mode and
// status; the search flow (searchPaymentsAcrossMerchants) reads and checks all of it.

const SEARCH_BY = [
  { by: 'token', label: 'Payment token' },
  { by: 'orderNumber', label: 'Order number' },
  { by: 'gatewayToken', label: 'Gateway token' },
  { by: 'cardLast4', label: 'Card: last 4 digits' },
] as const;

type SearchBy = (typeof SEARCH_BY)[number]['by'];

export interface PaymentSearchParams {
  by: SearchBy;
  value: string;
  merchantId: string;
  environment: string;
  status: string;
  pageSize: string; // the flow checks it (1..100); the form offers PAGE_SIZE_CHOICES
  cursor: string;
}

const PAGE_SIZE_CHOICES = ['20', '50', '100'];
const DEFAULT_PAGE_SIZE = '50'; // the flow's default

// The choices, and a size the address asked for that is not one of them.
function pageSizesOf(params: PaymentSearchParams): string[] {
  const asked = params.pageSize || DEFAULT_PAGE_SIZE;
  return PAGE_SIZE_CHOICES.includes(asked) ? PAGE_SIZE_CHOICES : [...PAGE_SIZE_CHOICES, asked];
}

export function searchParamsOf(query: unknown): PaymentSearchParams {
  const byText = formText(query, 'by');
  return {
    by: SEARCH_BY.find((choice) => choice.by === byText)?.by ?? 'token',
    value: formText(query, 'value').trim(),
    merchantId: formText(query, 'merchantId').trim(),
    environment: formText(query, 'environment'),
    status: formText(query, 'status'),
    pageSize: formText(query, 'pageSize').trim(),
    cursor: formText(query, 'cursor'),
  };
}

// The flow's form of the search; null until something is searched for.
export function searchTextOf(params: PaymentSearchParams): OperatorPaymentSearchText | null {
  if (params.value === '') return null;
  const { merchantId, environment, status, pageSize, cursor } = params;
  return { [params.by]: params.value, merchantId, environment, status, pageSize, cursor };
}

export function paymentSearchView(
  currencies: CurrencyTable,
  params: PaymentSearchParams,
  found: OperatorPaymentSearchResult | null,
  problem: SafeHtml | '',
): SafeHtml {
  return html`${problem}
${searchForm(params)}
${found === null ? html`<p class="note">Search every merchant’s payments, live and test, by one of the four; newest first.</p>` : results(currencies, params, found)}`;
}

function searchForm(params: PaymentSearchParams): SafeHtml {
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<section aria-labelledby="search-heading">
<h2 id="search-heading">Search</h2>
<form method="get" action="/ops/payments" class="filters">
  <p><label for="search-by">Search by</label><br><select id="search-by" name="by">
    ${SEARCH_BY.map((choice) => option(choice.by, choice.label, params.by === choice.by))}
  </select></p>
  <p><label for="search-value">Value</label><br><input id="search-value" name="value" type="search" maxlength="255" autocomplete="off" spellcheck="false" value="${params.value}"></p>
  <p><label for="search-merchant">Merchant id</label><br><input id="search-merchant" name="merchantId" type="text" inputmode="numeric" maxlength="16" value="${params.merchantId}"></p>
  <p><label for="search-environment">Mode</label><br><select id="search-environment" name="environment">
    ${option('', 'Live and test', params.environment === '')}
    ${option('production', 'Live', params.environment === 'production')}
    ${option('sandbox', 'Test (sandbox)', params.environment === 'sandbox')}
  </select></p>
  <p><label for="search-status">Status</label><br><select id="search-status" name="status">
    ${option('', 'Any status', params.status === '')}
    ${PAYMENT_STATUSES.map((status) => option(status, status, params.status === status))}
  </select></p>
  <p><label for="search-page-size">Rows per page</label><br><select id="search-page-size" name="pageSize">
    ${pageSizesOf(params).map((size) => option(size, size, size === (params.pageSize || DEFAULT_PAGE_SIZE)))}
  </select></p>
  <p class="filter-actions"><button type="submit">Search</button> <a href="/ops/payments">Clear</a></p>
</form>
</section>`;
}

function results(currencies: CurrencyTable, params: PaymentSearchParams, found: OperatorPaymentSearchResult): SafeHtml {
  const firstPage = params.cursor === '' ? '' : html`<a href="${searchHref(params, null)}">First page</a>`;
  const next = found.nextCursor === null ? '' : html`<a href="${searchHref(params, found.nextCursor)}" rel="next">Next page</a>`;
  const pages = firstPage === '' && next === '' ? '' : html`<nav aria-label="Payments" class="pages">${firstPage} ${next}</nav>`;
  const scan =
    found.scannedRows === null
      ? ''
      : html`<p class="note">Looked at ${found.scannedRows} payments${found.scanCut ? ', as many as a page looks at: the next page looks further' : ''}.</p>`;
  if (found.rows.length === 0) return html`${scan}<p class="empty" role="status">No payment matches this search.</p>${pages}`;
  return html`${scan}<div class="table-wrap"><table class="payments">
<caption>Payments, newest first</caption>
<thead><tr>
  <th scope="col">Created</th><th scope="col">Token</th><th scope="col">Merchant</th><th scope="col">Mode</th>
  <th scope="col">Order</th><th scope="col">Status</th><th scope="col" class="num">Amount</th>
</tr></thead>
<tbody>${found.rows.map((row) => paymentRow(currencies, row))}</tbody>
</table></div>
${pages}`;
}

function paymentRow(currencies: CurrencyTable, payment: PaymentRow): SafeHtml {
  return html`<tr>
  <td><time datetime="${payment.createdAt.toISOString()}">${utcMinute(payment.createdAt)}</time></td>
  <th scope="row"><a href="/ops/payments/${payment.token}"><code>${payment.token}</code></a></th>
  <td><a href="/ops/merchants/${payment.merchantId}">#${payment.merchantId}</a></td>
  <td>${payment.environment === 'production' ? 'live' : 'test'}</td>
  <td>${payment.orderNumber ?? ''}</td>
  <td>${statusBadge(payment.status)}</td>
  <td class="num">${amountText(currencies, payment.amountMinor, payment.currency)}</td>
</tr>`;
}

function searchHref(params: PaymentSearchParams, cursor: string | null): string {
  const query = new URLSearchParams({ by: params.by, value: params.value });
  for (const name of ['merchantId', 'environment', 'status', 'pageSize'] as const) if (params[name] !== '') query.set(name, params[name]);
  if (cursor !== null) query.set('cursor', cursor);
  return `/ops/payments?${query.toString()}`;
}
