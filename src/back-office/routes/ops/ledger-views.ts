import type { FastifyRequest } from 'fastify';
import { COMMISSION_RANGE_DAYS_MAX, type CommissionsEarned, type LedgerEnvironment, type MerchantBalancePage } from '../../../ledger/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { LedgerCheckRun, LinkedViolation } from '../../flows/ops-ledger.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import { csrfField } from '../../pages/document.ts';
import { ifOperatorMay } from './layout.ts';
import { amountText } from '../../pages/amount-text.ts';
import { timeText } from './page-values.ts';

export interface BalancesQuery {
  merchant: string; // a merchant id, or '' for all
  after: string; // the cursor of the page before, or ''
}

export interface CommissionsQuery {
  environment: LedgerEnvironment;
  from: string; // YYYY-MM-DD
  to: string;
}

function ledgerLinks(request: FastifyRequest): SafeHtml {
  return html`<p class="action-links"><a href="/ops/ledger">Balances</a> · <a href="/ops/ledger/commissions">Commissions earned</a></p>
<form method="post" action="/ops/ledger/check" class="inline">${csrfField(request)}<button type="submit">Run the ledger check</button></form>
<p class="help">The check reads the whole ledger: it may take a while on a large one. Each run is recorded in the audit log.</p>`;
}

export function balancesView(
  request: FastifyRequest,
  operator: OperatorViewer,
  currencies: CurrencyTable,
  query: BalancesQuery,
  found: MerchantBalancePage,
  problem: SafeHtml | '',
): SafeHtml {
  const nextHref = (cursor: string) => `/ops/ledger?${new URLSearchParams({ merchant: query.merchant, after: cursor }).toString()}`;
  const merchantCell = (merchantId: number) =>
    ifOperatorMay(operator, 'merchants.read', html`<a href="/ops/merchants/${merchantId}">${merchantId}</a>`) || String(merchantId);
  return html`${ledgerLinks(request)}${problem}
<section aria-labelledby="balances-h"><h2 id="balances-h">Balances per merchant and currency</h2>
<form method="get" action="/ops/ledger" class="filters">
<p><label for="balances-merchant">Merchant id</label><br><input id="balances-merchant" name="merchant" inputmode="numeric" pattern="[0-9]*" maxlength="15" value="${query.merchant}"></p>
<p class="filter-actions"><button type="submit">Show</button> <a href="/ops/ledger">All merchants</a></p></form>
${
  found.balances.length === 0
    ? html`<p class="empty" role="status">No balances${query.merchant === '' ? '' : ' for this merchant'}.</p>`
    : html`<div class="table-wrap"><table><caption>Available and held, by merchant, environment and currency</caption>
<thead><tr><th scope="col">Merchant</th><th scope="col">Environment</th><th scope="col">Currency</th><th scope="col" class="num">Available</th><th scope="col" class="num">Hold</th></tr></thead>
<tbody>${found.balances.map(
        (row) => html`<tr><th scope="row">${merchantCell(row.merchantId)}</th><td>${row.environment}</td><td>${row.currency}</td>
<td class="num">${amountText(currencies, row.availableMinor, row.currency)}</td><td class="num">${amountText(currencies, row.holdMinor, row.currency)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav aria-label="Balance pages" class="pages">${query.after === '' ? '' : html`<a href="${nextHref('')}">First page</a>`} ${
    found.nextCursor === null ? '' : html`<a href="${nextHref(found.nextCursor)}" rel="next">Next page</a>`
  }</nav></section>`;
}

export function commissionsView(currencies: CurrencyTable, query: CommissionsQuery, earned: CommissionsEarned | null, problem: SafeHtml | ''): SafeHtml {
  const option = (value: LedgerEnvironment) => html`<option value="${value}"${query.environment === value ? html` selected` : ''}>${value}</option>`;
  return html`<p class="action-links"><a href="/ops/ledger">Balances</a></p>${problem}
<form method="get" action="/ops/ledger/commissions" class="filters">
<p><label for="commissions-environment">Environment</label><br><select id="commissions-environment" name="environment">${option('production')}${option('sandbox')}</select></p>
<p><label for="commissions-from">From (UTC day)</label><br><input id="commissions-from" name="from" type="date" required value="${query.from}"></p>
<p><label for="commissions-to">To (UTC day, at most ${COMMISSION_RANGE_DAYS_MAX} days)</label><br><input id="commissions-to" name="to" type="date" required value="${query.to}"></p>
<p class="filter-actions"><button type="submit">Show</button></p></form>
${earned === null ? '' : commissionsTable(currencies, earned)}`;
}

function commissionsTable(currencies: CurrencyTable, earned: CommissionsEarned): SafeHtml {
  const coverage =
    earned.coveredFrom === null
      ? ''
      : html`<p class="note" role="status">Only the newest ledger transactions were read: the figures start at ${timeText(earned.coveredFrom)}.</p>`;
  if (earned.days.length === 0) return html`${coverage}<p class="empty" role="status">No commissions in this range.</p>`;
  return html`${coverage}<div class="table-wrap"><table><caption>Commissions earned per day (the merchants' fees accounts; a reversal gives its commission back)</caption>
<thead><tr><th scope="col">Day</th><th scope="col">Currency</th><th scope="col" class="num">Earned</th></tr></thead>
<tbody>${earned.days.map(
    (day) => html`<tr><th scope="row">${day.day}</th><td>${day.currency}</td><td class="num">${amountText(currencies, day.feesMinor, day.currency)}</td></tr>`,
  )}</tbody></table></div>`;
}

export function checkView(request: FastifyRequest, currencies: CurrencyTable, run: LedgerCheckRun): SafeHtml {
  const verdict =
    run.violations.length === 0
      ? html`<p class="ok" role="status">The ledger holds: no invariant is violated.</p>`
      : html`<p class="error" role="alert">${run.violations.length} violations found.</p>`;
  return html`${ledgerLinks(request)}${verdict}
${
  run.violations.length === 0
    ? ''
    : html`<div class="table-wrap"><table><caption>Violations</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">What</th><th scope="col">About</th></tr></thead>
<tbody>${run.violations.map((violation) => html`<tr><th scope="row">${violation.rule}</th><td>${violation.message}</td><td>${violationLinks(violation)}</td></tr>`)}</tbody></table></div>`
}
<section aria-labelledby="overdrawn-h"><h2 id="overdrawn-h">Overdrawn wallets</h2>
<p class="help">A provider took back an approved payment after the merchant spent it: not a violation, listed for follow-up.</p>
${
  run.overdrawn.length === 0
    ? html`<p class="empty">None.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Merchant</th><th scope="col">Environment</th><th scope="col" class="num">Available</th></tr></thead>
<tbody>${run.overdrawn.map(
        (wallet) => html`<tr><th scope="row"><a href="/ops/merchants/${wallet.merchantId}">${wallet.merchantId}</a></th><td>${wallet.environment}</td>
<td class="num">${amountText(currencies, wallet.available, wallet.currency)}</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}

function violationLinks(violation: LinkedViolation): SafeHtml {
  const links = [
    violation.merchantId === null ? '' : html`<a href="/ops/merchants/${violation.merchantId}">merchant ${violation.merchantId}</a>`,
    violation.paymentToken === null ? '' : html`<a href="/ops/payments/${violation.paymentToken}">payment <code>${violation.paymentToken}</code></a>`,
    violation.profileId === null ? '' : html`<a href="/ops/users/${violation.profileId}">user ${violation.profileId}</a>`,
    violation.conflictId === null ? '' : html`<a href="/ops/conflicts">conflict ${violation.conflictId}</a>`,
  ].filter((link) => link !== '');
  const refs = Object.entries(violation.ref)
    .map(([name, value]) => `${name} ${value}`)
    .join(', ');
  return html`${links.map((link, index) => html`${index > 0 ? ' · ' : ''}${link}`)}${links.length > 0 ? html`<br>` : ''}<small>${refs}</small>`;
}
