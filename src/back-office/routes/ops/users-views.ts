import type { FastifyRequest } from 'fastify';
import {
  type BankAccountRow,
  KYC_STATUSES,
  USER_SEARCH_RESULTS_MAX,
  USER_SEARCH_TEXT_LENGTH_MAX,
  type UserRow,
  type WalletView,
} from '../../../core-banking/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import { csrfField } from '../../pages/document.ts';
import { ifOperatorMay } from './layout.ts';
import { amountText } from '../../pages/amount-text.ts';
import { timeText } from './page-values.ts';

export const USERS_PER_PAGE = 50;

const fullName = (user: UserRow) => [user.name, user.surname].filter(Boolean).join(' ');

export function userListView(list: { search: string; page: number; rows: UserRow[]; total: number | null; problem: SafeHtml | '' }): SafeHtml {
  const { search, page, rows, total } = list;
  const pageHref = (to: number) => `/ops/users?page=${to}`;
  const pages =
    total === null
      ? []
      : [
          page > 1 ? html`<a href="${pageHref(page - 1)}">Previous page</a>` : '',
          page * USERS_PER_PAGE < total ? html`<a href="${pageHref(page + 1)}" rel="next">Next page</a>` : '',
        ];
  const summary =
    total === null
      ? `The newest ${rows.length} profiles matching “${search}” (at most ${USER_SEARCH_RESULTS_MAX}).`
      : `${total} profiles, newest first; page ${page}.`;
  return html`${list.problem}
<form method="get" action="/ops/users" class="filters" role="search">
<p><label for="users-q">Id, e-mail, phone, or part of a name</label><br><input id="users-q" name="q" type="search" maxlength="${USER_SEARCH_TEXT_LENGTH_MAX}" value="${search}"></p>
<p class="filter-actions"><button type="submit">Search</button> <a href="/ops/users">All users</a></p></form>
${
  rows.length === 0
    ? html`<p class="empty" role="status">No profiles ${search === '' ? 'on this page' : 'match'}.</p>`
    : html`<p>${summary}</p><div class="table-wrap"><table>
<caption>Core banking profiles</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Phone</th><th scope="col">Kind</th>
<th scope="col">KYC</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${rows.map(
        (
          user,
        ) => html`<tr><th scope="row"><a href="/ops/users/${user.id}">${user.id}</a></th><td>${fullName(user)}${user.companyName ? ` (${user.companyName})` : ''}</td>
<td>${user.email ?? '—'}</td><td>${user.phone ?? '—'}</td><td>${user.kind}</td><td>${user.kycStatus}</td>
<td><span class="status status-${user.status}">${user.status}</span></td><td>${timeText(user.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
<nav aria-label="User pages" class="pages">${pages}</nav>`;
}

export interface UserProfile {
  user: UserRow;
  wallets: WalletView[];
  bankAccounts: BankAccountRow[] | null; // null: the operator's role does not review bank accounts
  currencies: CurrencyTable;
  notice: SafeHtml | '';
}

export function userProfileView(request: FastifyRequest, operator: OperatorViewer, profile: UserProfile): SafeHtml {
  const { user } = profile;
  return html`${profile.notice}
<section aria-labelledby="profile-h"><h2 id="profile-h">Profile</h2>
<dl class="facts"><dt>Name</dt><dd>${fullName(user)}</dd><dt>Company</dt><dd>${user.companyName ?? '—'}</dd><dt>Kind</dt><dd>${user.kind}</dd>
<dt>E-mail</dt><dd>${user.email ?? '—'}</dd><dt>Phone</dt><dd>${user.phone ?? '—'}</dd><dt>Country</dt><dd>${user.country ?? '—'}</dd>
<dt>Wallet type</dt><dd>${user.walletType}</dd><dt>Current currency</dt><dd>${user.currentCurrency}</dd>
<dt>Status</dt><dd><span class="status status-${user.status}">${user.status}</span></dd><dt>KYC status</dt><dd>${user.kycStatus}</dd>
<dt>Wallet PIN</dt><dd>${user.walletPinEnabled ? 'on' : 'off'}</dd><dt>Created</dt><dd>${timeText(user.createdAt)}</dd><dt>Updated</dt><dd>${timeText(user.updatedAt)}</dd></dl>
${ifOperatorMay(operator, 'users.write', changeForm(request, user))}</section>
<section aria-labelledby="wallets-h"><h2 id="wallets-h">Wallets</h2>
${
  profile.wallets.length === 0
    ? html`<p class="empty">No wallet has moved yet.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Currency</th><th scope="col" class="num">Available</th></tr></thead>
<tbody>${profile.wallets.map((wallet) => html`<tr><th scope="row">${wallet.currency}</th><td class="num">${amountText(profile.currencies, wallet.available_minor, wallet.currency)}</td></tr>`)}</tbody></table></div>`
}</section>
${profile.bankAccounts === null ? '' : bankAccountsSection(profile.bankAccounts)}
<p><a href="/ops/users">All users</a></p>`;
}

function changeForm(request: FastifyRequest, user: UserRow): SafeHtml {
  const option = (value: string, selected: boolean, label = value) => html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;
  return html`<form method="post" action="/ops/users/${user.id}" class="stack">${csrfField(request)}
<label for="user-status">Status (disabled: no sign-in, every session ends)</label><select id="user-status" name="status">${option('active', user.status === 'active')}${option('disabled', user.status === 'disabled')}</select>
<label for="user-kyc">KYC status</label><select id="user-kyc" name="kyc_status">${KYC_STATUSES.map((status) => option(status, user.kycStatus === status))}</select>
<label for="user-pin">Wallet PIN</label><select id="user-pin" name="wallet_pin_enabled">${option('on', user.walletPinEnabled)}${option('off', !user.walletPinEnabled)}</select>
<button type="submit">Save</button></form>`;
}

function bankAccountsSection(rows: BankAccountRow[]): SafeHtml {
  return html`<section aria-labelledby="banks-h"><h2 id="banks-h">Bank accounts</h2>
${
  rows.length === 0
    ? html`<p class="empty">No bank accounts.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Id</th><th scope="col">Account</th><th scope="col">Holder</th><th scope="col">Status</th><th scope="col">Added</th></tr></thead>
<tbody>${rows.map(
        (row) => html`<tr><th scope="row">${row.id}</th><td><code>${row.value}</code> ${row.currency}</td><td>${row.accountHolder ?? '—'}</td>
<td><span class="status status-${row.status}">${row.status}</span></td><td>${timeText(row.createdAt)}</td></tr>`,
      )}</tbody></table></div>`
}
<p><a href="/ops/bank-accounts">The review queue</a></p></section>`;
}
