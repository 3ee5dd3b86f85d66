import type { OperationsOverview } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { chart, majorUnits, totalsTable } from '../../pages/charts.ts';

const percent = (rate: number | null) => (rate === null ? '–' : `${(100 * rate).toFixed(1)} %`);
const age = (ms: number | null) => (ms === null ? '–' : ms < 60_000 ? `${Math.round(ms / 1000)} s` : `${Math.round(ms / 60_000)} min`);
const milliseconds = (value: number | null) => (value === null ? '–' : `${value.toFixed(value < 10 ? 1 : 0)} ms`);

function dayList(fromDay: string, toDay: string): string[] {
  const days: string[] = [];
  for (let day = Date.parse(`${fromDay}T00:00:00Z`); day <= Date.parse(`${toDay}T00:00:00Z`); day += 86_400_000)
    days.push(new Date(day).toISOString().slice(0, 10));
  return days;
}

// The payments across merchants: volume and count per day and currency, approval rate, decline classes.
function paymentCharts(currencies: CurrencyTable, overview: OperationsOverview): SafeHtml {
  if (overview.days.length === 0) return html`<p role="status">No final payments in this range (${overview.environment}).</p>`;
  const days = dayList(overview.fromDay, overview.toDay);
  const codes = [...new Set(overview.days.map((entry) => entry.currency))].sort();
  const at = (day: string, currency: string) => overview.days.find((entry) => entry.day === day && entry.currency === currency);
  const volumeRows = days.map((day) => [day, ...codes.map((currency) => majorUnits(currencies, at(day, currency)?.volumeMinor ?? 0, currency))]);
  const countRows = days.map((day) => [day, ...codes.map((currency) => String(at(day, currency)?.count ?? 0))]);
  const rateRows = days.map((day) => {
    const entries = overview.days.filter((entry) => entry.day === day);
    const count = entries.reduce((sum, entry) => sum + entry.count, 0);
    const approved = entries.reduce((sum, entry) => sum + entry.approvedCount, 0);
    return [day, count === 0 ? '0' : ((100 * approved) / count).toFixed(1)];
  });
  const declines = new Map<string, number>();
  for (const entry of overview.declineClassesByDay) declines.set(entry.declineClass, (declines.get(entry.declineClass) ?? 0) + entry.count);
  return html`${chart('volume', 'Volume per day (final payments)', ['Day', ...codes], volumeRows)}
${chart('counts', 'Payments per day', ['Day', ...codes], countRows)}
${chart('approval', 'Approval rate per day (%)', ['Day', 'Approval rate (%)'], rateRows)}
${totalsTable(
  'declines',
  'Decline classes',
  'Class',
  [...declines].map(([name, count]) => ({ name, count })),
)}`;
}

function adapterTable(overview: OperationsOverview): SafeHtml {
  const rows = overview.adapterTraffic.gatewayMethods;
  const coverage = overview.adapterTraffic.coverage;
  return html`<section aria-labelledby="adapters-h"><h2 id="adapters-h">Adapter calls per gateway and method</h2>
${coverage.complete ? '' : html`<p class="note">Read the newest ${coverage.rowsScanned} exchanges only (from ${coverage.oldestScannedAt?.toISOString() ?? '–'}).</p>`}
${
  rows.length === 0
    ? html`<p>No adapter calls in this range.</p>`
    : html`<div class="table-wrap"><table><thead><tr><th scope="col">Gateway</th><th scope="col">Method</th><th scope="col" class="num">Requests</th>
<th scope="col" class="num">Error rate</th><th scope="col" class="num">p50</th><th scope="col" class="num">p99</th></tr></thead>
<tbody>${rows.map(
        (
          row,
        ) => html`<tr><th scope="row">${row.gatewayId === null ? 'sandbox (built in)' : html`<a href="/ops/gateways/${row.gatewayId}">#${row.gatewayId} ${row.gatewayAlias ?? ''}</a>`}</th>
<td>${row.method}</td><td class="num">${row.requestCount}</td><td class="num${row.errorCount > 0 ? ' bad' : ''}">${percent(row.errorRate)} (${row.errorCount})</td>
<td class="num">${milliseconds(row.p50Ms)}</td><td class="num">${milliseconds(row.p99Ms)}</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}

// The queues: what waits, and for how long. A payment past its lifetime and still open is a fault (a red card).
function queueCards(overview: OperationsOverview): SafeHtml {
  const stuck = overview.stuckPayments;
  const notifications = overview.notifications;
  return html`<section aria-labelledby="queues-h"><h2 id="queues-h">Queues</h2>
<div class="cards">
<div class="card${stuck.count > 0 ? ' alert' : ''}" id="stuck-card"><p>Payments stuck past their lifetime</p><p class="figure">${stuck.count}${stuck.countExact ? '' : '+'}</p>
<p>${stuck.count === 0 ? 'none: every payment past its lifetime has ended' : 'must be 0: the expiry worker is behind or failing'}</p></div>
<div class="card"><p>Notifications due</p><p class="figure">${notifications.due}</p><p>${notifications.open} open · failure rate ${percent(notifications.failureRate)} (${notifications.failedCount} of ${notifications.attemptCount})</p></div>
<div class="card"><p>Status checks due</p><p class="figure">${overview.statusCheckBacklog.due}</p><p>oldest since ${overview.statusCheckBacklog.oldestDueAt?.toISOString() ?? '–'}</p></div>
</div>
${
  stuck.listed.length === 0
    ? ''
    : html`<div class="table-wrap"><table><caption>Stuck payments (first ${stuck.listed.length})</caption><thead><tr><th scope="col">Payment</th><th scope="col">Merchant</th><th scope="col">Status</th><th scope="col">Lifetime ended</th></tr></thead>
<tbody>${stuck.listed.map(
        (payment) =>
          html`<tr><th scope="row"><a href="/ops/payments/${payment.token}"><code>${payment.token}</code></a></th><td><a href="/ops/merchants/${payment.merchantId}">#${payment.merchantId}</a> ${payment.environment}</td><td>${payment.status}</td><td>${payment.expiresAt?.toISOString() ?? '–'}</td></tr>`,
      )}</tbody></table></div>`
}
<div class="table-wrap"><table><caption>Outbox per topic</caption><thead><tr><th scope="col">Topic</th><th scope="col" class="num">Open</th><th scope="col" class="num">Due now</th><th scope="col" class="num">Oldest due for</th></tr></thead>
<tbody>${overview.outbox.map(
    (topic) =>
      html`<tr><th scope="row">${topic.topic}</th><td class="num">${topic.open}</td><td class="num">${topic.due}</td><td class="num">${age(topic.oldestDueAgeMs)}</td></tr>`,
  )}</tbody></table></div></section>`;
}

export function overviewView(currencies: CurrencyTable, overview: OperationsOverview): SafeHtml {
  return html`${queueCards(overview)}
<section aria-labelledby="payments-h"><h2 id="payments-h">Payments across merchants (${overview.environment})</h2>
<p class="note">Final payments by the day they were created (UTC), ${overview.fromDay} to ${overview.toDay}.</p>
${paymentCharts(currencies, overview)}</section>
${adapterTable(overview)}`;
}
