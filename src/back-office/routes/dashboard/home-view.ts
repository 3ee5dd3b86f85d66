import type { DailyStats } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText } from '../../pages/amount-text.ts';
import { chart, majorUnits, totalsTable } from '../../pages/charts.ts';

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
