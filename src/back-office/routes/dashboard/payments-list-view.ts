import { PAYMENT_STATUSES, type PaymentListResult, type PaymentRow } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { exportHref, isFiltered, listHref, PER_PAGE_CHOICES, type PaymentListParams } from './payments-query.ts';
import { paymentTexts as T } from './texts-payments.ts';

// The Payments list: the filter form (every filter of GET /api/v1/payments and the search), the page of payments,
// the next-page link carrying the cursor, the CSV export of the same filters. `found` is null when the filters were
// refused (the problem is shown above the form).
export function paymentsListView(currencies: CurrencyTable, params: PaymentListParams, found: PaymentListResult | null, problem: SafeHtml | ''): SafeHtml {
  return html`${problem}
${filterForm(params)}
${found === null ? '' : results(currencies, params, found)}`;
}

function filterForm(params: PaymentListParams): SafeHtml {
  const field = (name: keyof PaymentListParams, label: string, type: string, extra: SafeHtml | '' = '') =>
    html`<p><label for="filter-${name}">${label}</label><br><input id="filter-${name}" name="${name}" type="${type}" value="${String(params[name])}"${extra}></p>`;
  const option = (value: string, label: string, selected: boolean) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<section aria-labelledby="filters-heading">
<h2 id="filters-heading">${T.filtersHeading}</h2>
<form method="get" action="/dashboard/payments" class="filters">
  ${field('dateFrom', T.dateFrom, 'date')}
  ${field('dateTo', T.dateTo, 'date')}
  <p><label for="filter-operationType">${T.operationType}</label><br><select id="filter-operationType" name="operationType">
    ${option('all', T.operationAll, params.operationType === 'all')}
    ${option('pays', T.operationPays, params.operationType === 'pays')}
    ${option('payouts', T.operationPayouts, params.operationType === 'payouts')}
  </select></p>
  <p><label for="filter-status">${T.status}</label><br><select id="filter-status" name="status">
    ${option('', T.anyStatus, params.status === '')}
    ${PAYMENT_STATUSES.map((status) => option(status, status, params.status === status))}
  </select></p>
  ${field('orderNumber', T.orderNumber, 'text', html` maxlength="255"`)}
  ${field('token', T.token, 'text', html` maxlength="32" autocomplete="off" spellcheck="false"`)}
  ${field('customerEmail', T.customerEmail, 'email', html` maxlength="254" autocomplete="off"`)}
  ${field('cardLast4', T.cardLast4, 'text', html` inputmode="numeric" pattern="[0-9]{4}" maxlength="4" autocomplete="off"`)}
  <p><label for="filter-perPage">${T.perPage}</label><br><select id="filter-perPage" name="perPage">
    ${PER_PAGE_CHOICES.map((choice) => option(String(choice), String(choice), params.perPage === choice))}
  </select></p>
  <p class="filter-actions"><button type="submit">${T.apply}</button> <a href="/dashboard/payments">${T.clear}</a></p>
</form>
</section>`;
}

function results(currencies: CurrencyTable, params: PaymentListParams, found: PaymentListResult): SafeHtml {
  if (found.rows.length === 0) {
    const empty = isFiltered(params) || params.cursor !== '' ? T.emptyFiltered : T.empty;
    return html`<p class="empty" role="status">${empty}</p>${params.cursor === '' ? '' : html`<p><a href="${listHref(params, null)}">${T.firstPage}</a></p>`}`;
  }
  const pages = [
    params.cursor === '' ? '' : html`<a href="${listHref(params, null)}">${T.firstPage}</a>`,
    found.nextCursor === null ? '' : html`<a href="${listHref(params, found.nextCursor)}" rel="next">${T.nextPage}</a>`,
  ];
  return html`<p>${T.total(found.total, found.totalExact)} · <a href="${exportHref(params)}" download>${T.exportCsv}</a></p>
<div class="table-wrap"><table class="payments">
<caption>${T.caption}</caption>
<thead><tr>
  <th scope="col">${T.columnCreated}</th><th scope="col">${T.columnToken}</th><th scope="col">${T.columnKind}</th>
  <th scope="col">${T.columnOrder}</th><th scope="col">${T.columnProduct}</th><th scope="col">${T.columnStatus}</th>
  <th scope="col" class="num">${T.columnAmount}</th>
</tr></thead>
<tbody>${found.rows.map((row) => paymentRow(currencies, row))}</tbody>
</table></div>
<nav aria-label="${T.listTitle}" class="pages">${pages}</nav>`;
}

function paymentRow(currencies: CurrencyTable, payment: PaymentRow): SafeHtml {
  return html`<tr>
  <td><time datetime="${payment.createdAt.toISOString()}">${utcMinute(payment.createdAt)}</time></td>
  <th scope="row"><a href="/dashboard/payments/${payment.token}"><code>${payment.token}</code></a></th>
  <td>${payment.operationType === 'payout' ? T.kindPayout : T.kindPay}</td>
  <td>${payment.orderNumber ?? ''}</td>
  <td>${payment.product}</td>
  <td>${statusBadge(payment.status)}</td>
  <td class="num">${amountText(currencies, payment.amountMinor, payment.currency)}</td>
</tr>`;
}
