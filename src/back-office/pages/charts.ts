import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { currencyExponent } from '../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../platform/lib/html.ts';

// The charts of the back office's pages (the dashboard's home, the console's overview): a <figure data-chart> holding
// its numbers in a table that assets/charts.js draws with uPlot, and bars drawn here as SVG. Every chart's numbers
// are one click away in a table, readable without colour.

// The number behind a chart point in major units, as text (exact: built from the integer), for the table and uPlot.
export function majorUnits(currencies: CurrencyTable, amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currencies, currency) ?? 0;
  if (exponent === 0) return String(amountMinor);
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, '0');
  return `${amountMinor < 0 ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

export function chart(id: string, caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): SafeHtml {
  if (rows.length === 0) return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2><p>${'Nothing here yet.'}</p></section>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2>
<figure data-chart="${id}" aria-describedby="${id}-note"><div class="chart" role="img" aria-label="${caption}: chart; the numbers are in the table below"></div>
<p id="${id}-note" class="note">Each series has its own line pattern and marker size, not only its colour.</p>
<details><summary>${'Show the numbers'}</summary><div class="table-wrap"><table>
<thead><tr>${headers.map((header, index) => html`<th scope="col"${index > 0 ? html` class="num"` : ''}>${header}</th>`)}</tr></thead>
<tbody>${rows.map((row) => html`<tr>${row.map((cell, index) => (index === 0 ? html`<th scope="row">${cell}</th>` : html`<td class="num">${cell}</td>`))}</tr>`)}</tbody>
</table></div></details></figure></section>`;
}

const BAR_ROW_HEIGHT = 28;
const BAR_LABEL_WIDTH = 180;
const BAR_WIDTH_MAX = 320;

// A bar per class, drawn here as SVG (no script): each bar carries its name and figures in text, so colour tells
// nothing the words don't; the same numbers are in the table below it.
function bars(caption: string, totals: readonly { name: string; count: number }[], all: number): SafeHtml {
  const largest = Math.max(...totals.map((total) => total.count), 1);
  const height = totals.length * BAR_ROW_HEIGHT;
  return html`<svg class="bars" viewBox="0 0 ${BAR_LABEL_WIDTH + BAR_WIDTH_MAX + 120} ${height}" role="img" aria-label="${caption}: bar chart; the numbers are in the table below">
${totals.map((total, index) => {
  const y = index * BAR_ROW_HEIGHT;
  const width = Math.max(2, Math.round((BAR_WIDTH_MAX * total.count) / largest));
  return html`<text x="0" y="${y + 18}" font-size="14" fill="#1a1a1a">${total.name.replaceAll('_', ' ')}</text>
<rect x="${BAR_LABEL_WIDTH}" y="${y + 5}" width="${width}" height="${BAR_ROW_HEIGHT - 10}" fill="#1f5fbf"></rect>
<text x="${BAR_LABEL_WIDTH + width + 6}" y="${y + 18}" font-size="14" fill="#1a1a1a">${total.count} (${((100 * total.count) / all).toFixed(1)} %)</text>`;
})}</svg>`;
}

export function totalsTable(id: string, caption: string, label: string, totals: readonly { name: string; count: number }[]): SafeHtml {
  const all = totals.reduce((sum, total) => sum + total.count, 0);
  const body =
    totals.length === 0
      ? html`<p>${'Nothing here yet.'}</p>`
      : html`<figure>${bars(caption, totals, all)}
<details><summary>${'Show the numbers'}</summary><div class="table-wrap"><table><thead><tr><th scope="col">${label}</th><th scope="col" class="num">Payments</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${totals.map(
          (total) =>
            html`<tr><th scope="row">${total.name.replaceAll('_', ' ')}</th><td class="num">${total.count}</td><td class="num">${((100 * total.count) / all).toFixed(1)} %</td></tr>`,
        )}</tbody></table></div></details></figure>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2>${body}</section>`;
}
