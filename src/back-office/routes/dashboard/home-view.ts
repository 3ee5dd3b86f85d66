import type { DailyStats } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText } from './amount-text.ts';
import { t } from './texts.ts';

const DAY_MS = 86_400_000;
const RANGES = { today: 1, '7d': 7, '30d': 30, '90d': 90 } as const;
type RangeName = keyof typeof RANGES;

export interface HomeRange {
  name: RangeName;
  fromDay: string;
  toDay: string;
  days: string[];
}

// The chosen range, ending today (UTC); anything unknown is 7 days.
export function rangeOf(text: string | undefined, now = new Date()): HomeRange {
  const name: RangeName = text !== undefined && text in RANGES ? (text as RangeName) : '7d';
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const days = Array.from({ length: RANGES[name] }, (_, index) => new Date(today - (RANGES[name] - 1 - index) * DAY_MS).toISOString().slice(0, 10));
  return { name, fromDay: days[0] ?? '', toDay: days.at(-1) ?? '', days };
}

// The number behind a chart point in major units, as text (exact: built from the integer), for the table and uPlot.
function majorUnits(currencies: CurrencyTable, amountMinor: number, currency: string): string {
  const exponent = currencyExponent(currencies, currency) ?? 0;
  if (exponent === 0) return String(amountMinor);
  const digits = Math.abs(amountMinor)
    .toString()
    .padStart(exponent + 1, '0');
  return `${amountMinor < 0 ? '-' : ''}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

function chart(id: string, caption: string, headers: readonly string[], rows: readonly (readonly string[])[]): SafeHtml {
  if (rows.length === 0) return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2><p>${t('empty.generic')}</p></section>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2>
<figure data-chart="${id}" aria-describedby="${id}-note"><div class="chart" role="img" aria-label="${caption}: chart; the numbers are in the table below"></div>
<p id="${id}-note" class="note">Each series has its own line pattern and marker size, not only its colour.</p>
<details><summary>${t('action.showTable')}</summary><div class="table-wrap"><table>
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

function totalsTable(id: string, caption: string, label: string, totals: readonly { name: string; count: number }[]): SafeHtml {
  const all = totals.reduce((sum, total) => sum + total.count, 0);
  const body =
    totals.length === 0
      ? html`<p>${t('empty.generic')}</p>`
      : html`<figure>${bars(caption, totals, all)}
<details><summary>${t('action.showTable')}</summary><div class="table-wrap"><table><thead><tr><th scope="col">${label}</th><th scope="col" class="num">Payments</th><th scope="col" class="num">Share</th></tr></thead>
<tbody>${totals.map(
          (total) =>
            html`<tr><th scope="row">${total.name.replaceAll('_', ' ')}</th><td class="num">${total.count}</td><td class="num">${((100 * total.count) / all).toFixed(1)} %</td></tr>`,
        )}</tbody></table></div></details></figure>`;
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${caption}</h2>${body}</section>`;
}

export function homeView(
  currencies: CurrencyTable,
  range: HomeRange,
  wallets: readonly { currency: string; available: number; hold: number }[],
  stats: DailyStats,
): SafeHtml {
  const currencyCodes = [...new Set(stats.days.map((day) => day.currency))].sort();
  const at = (day: string, currency: string) => stats.days.find((entry) => entry.day === day && entry.currency === currency);
  const volumeRows = range.days.map((day) => [
    day,
    ...currencyCodes.map((currency) => majorUnits(currencies, at(day, currency)?.approvedVolumeMinor ?? 0, currency)),
  ]);
  const dayTotals = range.days.map((day) => {
    const entries = stats.days.filter((entry) => entry.day === day);
    return { day, count: entries.reduce((sum, entry) => sum + entry.count, 0), approved: entries.reduce((sum, entry) => sum + entry.approvedCount, 0) };
  });
  const countRows = dayTotals.map(({ day, count, approved }) => [day, String(count), String(approved)]);
  // A day without final payments has no rate: the chart shows 0 there, the table says so
  const rateRows = dayTotals.map(({ day, count, approved }) => [day, count === 0 ? '0' : ((100 * approved) / count).toFixed(1)]);
  const anyPayments = stats.days.length > 0;
  const rangeLinks = (Object.keys(RANGES) as RangeName[]).map(
    (name) =>
      html`<li><a href="/dashboard?range=${name}"${name === range.name ? html` aria-current="true"` : ''}>${name === 'today' ? 'Today' : name.replace('d', ' days')}</a></li>`,
  );
  return html`<section aria-labelledby="balances-h"><h2 id="balances-h">Balances</h2>
${
  wallets.length === 0
    ? html`<p>No money has moved yet. <a href="/dashboard/developers">Make a test payment</a> to see it here.</p>`
    : html`<div class="cards">${wallets.map(
        (wallet) => html`<div class="card"><p>${wallet.currency}</p><p class="figure">${amountText(currencies, wallet.available, wallet.currency)}</p>
<p>available · on hold ${amountText(currencies, wallet.hold, wallet.currency)}</p></div>`,
      )}</div>`
}
<p><a href="/dashboard/balance">Statement</a></p></section>
<nav aria-label="Range"><ul class="ranges">${rangeLinks}</ul></nav>
<p class="note">Final payments by the day they were created (UTC), ${range.fromDay} to ${range.toDay}; the charts lag the payments by a second or so.</p>
${anyPayments ? '' : html`<p>No final payments in this range.</p>`}
${anyPayments ? chart('volume', 'Approved volume per day', ['Day', ...currencyCodes], volumeRows) : ''}
${anyPayments ? chart('counts', 'Payments per day', ['Day', 'Payments', 'Approved'], countRows) : ''}
${anyPayments ? chart('approval', 'Approval rate per day (%)', ['Day', 'Approval rate (%)'], rateRows) : ''}
${totalsTable(
  'declines',
  'Decline reasons',
  'Class',
  stats.declineClasses.map((entry) => ({ name: entry.declineClass, count: entry.count })),
)}
${totalsTable(
  'methods',
  'Payment methods',
  'Method',
  stats.methods.map((entry) => ({ name: entry.method, count: entry.count })),
)}`;
}
