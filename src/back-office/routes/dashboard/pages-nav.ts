import { html, type SafeHtml } from '../../../platform/lib/html.ts';

// A list's page links (first page, next page), or nothing when there is no other page to go to.
export function pagesNav(label: string, firstPage: SafeHtml | '', next: SafeHtml | ''): SafeHtml | '' {
  if (firstPage === '' && next === '') return '';
  return html`<nav aria-label="${label}" class="pages">${firstPage} ${next}</nav>`;
}
