import type { MerchantSearchPage, MerchantSearchText } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { statusBadge } from '../../pages/status-badge.ts';

type SearchForm = Required<MerchantSearchText>;

const REVIEW_CHOICES: readonly { value: string; label: string }[] = [
  { value: '', label: 'Any' },
  { value: 'pending_review', label: 'Waiting for review' },
  { value: 'approved', label: 'Approved' },
  { value: 'rejected', label: 'Rejected' },
];

// The merchants list: the search form (name or id, review status), one page newest first, the next-page link.
// `found` is null when the search was refused (the problem is shown above the form).
export function merchantsListView(search: SearchForm, found: MerchantSearchPage | null, problem: SafeHtml | ''): SafeHtml {
  return html`${problem}
<p class="action-links"><a href="/ops/merchants?review=pending_review">Review queue: sign-ups waiting for review</a></p>
${searchForm(search)}
${found === null ? '' : results(search, found)}`;
}

function searchForm(search: SearchForm): SafeHtml {
  const choice = (item: { value: string; label: string }) =>
    html`<option value="${item.value}"${item.value === search.review ? html` selected` : ''}>${item.label}</option>`;
  return html`<section aria-labelledby="search-heading">
<h2 id="search-heading">Search</h2>
<form method="get" action="/ops/merchants" class="filters">
  <p><label for="search-q">Name or id</label><br><input id="search-q" name="q" type="search" maxlength="255" value="${search.q}"></p>
  <p><label for="search-review">Review</label><br><select id="search-review" name="review">${REVIEW_CHOICES.map(choice)}</select></p>
  <p class="filter-actions"><button type="submit">Search</button> <a href="/ops/merchants">Clear</a></p>
</form>
</section>`;
}

function results(search: SearchForm, found: MerchantSearchPage): SafeHtml {
  const firstPage = search.cursor === '' ? '' : html`<a href="${listHref(search, null)}">First page</a>`;
  if (found.merchants.length === 0) return html`<p class="empty" role="status">No merchant matches.</p>${firstPage === '' ? '' : html`<p>${firstPage}</p>`}`;
  const next = found.nextCursor === null ? '' : html`<a href="${listHref(search, found.nextCursor)}" rel="next">Next page</a>`;
  return html`<div class="table-wrap"><table>
<caption>Merchants, newest first</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Review</th><th scope="col">Created</th></tr></thead>
<tbody>${found.merchants.map(
    (merchant) => html`<tr>
  <td>#${merchant.id}</td>
  <th scope="row"><a href="/ops/merchants/${merchant.id}">${merchant.name}</a>${merchant.displayName === null ? '' : html` <small>(${merchant.displayName})</small>`}</th>
  <td>${statusBadge(merchant.status)}</td>
  <td>${statusBadge(merchant.reviewStatus)}</td>
  <td><time datetime="${merchant.createdAt.toISOString()}">${utcMinute(merchant.createdAt)}</time></td>
</tr>`,
  )}</tbody>
</table></div>
<nav aria-label="Merchants pages" class="pages">${firstPage} ${next}</nav>`;
}

function listHref(search: SearchForm, cursor: string | null): string {
  const query = new URLSearchParams();
  if (search.q !== '') query.set('q', search.q);
  if (search.review !== '') query.set('review', search.review);
  if (cursor !== null) query.set('cursor', cursor);
  const text = query.toString();
  return text === '' ? '/ops/merchants' : `/ops/merchants?${text}`;
}
