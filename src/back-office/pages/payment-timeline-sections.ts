import type { PaymentTimeline, StatusHistoryEntry } from '../../payments/index.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../platform/lib/html.ts';
import { amountText } from './amount-text.ts';
import { CAUSE_LABELS, EXCHANGE_LABELS, TIMELINE_PERSPECTIVE_TEXTS, timelineTexts as T, type TimelinePerspective } from './payment-timeline-texts.ts';
import { statusBadge } from './status-badge.ts';

// The timeline page's record sections, each with its empty state: status changes, refunds, disputes, conflicts,
// gateway exchanges and ledger postings (notifications: payment-timeline-notifications.ts). The dashboard and the
// console show the same sections; `base` is where the viewer's own pages are (/dashboard or /ops).

const ENTRY_CHARS_MAX = 20_000; // an exchange shown on the page; the API's GET /api/v1/payments/{token} has it whole

export function section(id: string, heading: string, body: SafeHtml): SafeHtml {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${body}</section>`;
}

// A history is read to the second (UTC); the datetime attribute keeps the exact instant.
export function timeOf(at: Date): SafeHtml {
  return html`<time datetime="${at.toISOString()}">${at.toISOString().slice(0, 19).replace('T', ' ')} UTC</time>`;
}

function emptyState(text: string): SafeHtml {
  return html`<p class="empty">${text}</p>`;
}

function table(caption: string, columns: readonly (string | { num: string })[], rows: readonly SafeHtml[]): SafeHtml {
  const heads = columns.map((column) =>
    typeof column === 'string' ? html`<th scope="col">${column}</th>` : html`<th scope="col" class="num">${column.num}</th>`,
  );
  return html`<div class="table-wrap"><table><caption class="visually-hidden">${caption}</caption><thead><tr>${heads}</tr></thead><tbody>${rows}</tbody></table></div>`;
}

export function statusChangesSection(timeline: PaymentTimeline): SafeHtml {
  const items = timeline.statusChanges.map(
    (change) =>
      html`<li>${timeOf(change.at)} — ${statusBadge(change.status)} · ${causeLabel(change)}${
        change.note === null ? '' : html` <span class="note">(${change.note})</span>`
      }</li>`,
  );
  if (items.length === 0) return section('status-changes', T.statusChangesHeading, emptyState(T.noStatusChanges));
  return section('status-changes', T.statusChangesHeading, html`${inferredNotice(timeline.statusChanges)}<ol class="timeline">${items}</ol>`);
}

// A recorded cause as it is; one read back from what was kept (a payment from before the record) marked so.
export function causeLabel(change: StatusHistoryEntry): SafeHtml {
  if (!change.inferred) return html`<span class="cause">${CAUSE_LABELS[change.cause]}</span>`;
  return html`<span class="cause inferred">${CAUSE_LABELS[change.cause]} (${T.inferred})</span>`;
}

export function inferredNotice(changes: readonly StatusHistoryEntry[]): SafeHtml | '' {
  return changes.some((change) => change.inferred) ? html`<p class="note">${T.inferredHistory}</p>` : '';
}

export function refundsSection(currencies: CurrencyTable, timeline: PaymentTimeline): SafeHtml {
  const rows = timeline.refunds.map(
    (refund) => html`<tr>
  <td>${timeOf(refund.createdAt)}</td><th scope="row"><code>${refund.token}</code></th>
  <td class="num">${amountText(currencies, refund.amountMinor, refund.currency)}</td><td>${statusBadge(refund.status)}</td>
  <td>${refund.finalizedAt === null ? '' : timeOf(refund.finalizedAt)}</td><td>${refund.declineReason ?? ''}</td>
</tr>`,
  );
  const body =
    rows.length === 0
      ? emptyState(T.noRefunds)
      : table(T.refundsHeading, [T.columnTime, T.columnToken, { num: T.columnAmount }, T.columnStatus, 'Settled', T.columnReason], rows);
  return section('refunds', T.refundsHeading, body);
}

export function disputesSection(currencies: CurrencyTable, timeline: PaymentTimeline, base: string): SafeHtml {
  const rows = timeline.disputes.map(
    (dispute) => html`<tr>
  <td>${timeOf(dispute.createdAt)}</td><th scope="row"><a href="${base}/disputes/${dispute.token}"><code>${dispute.token}</code></a></th>
  <td class="num">${amountText(currencies, dispute.amountMinor, dispute.currency)}</td><td>${statusBadge(dispute.status)}</td>
  <td>${dispute.resolvedAt === null ? '' : timeOf(dispute.resolvedAt)}</td><td>${dispute.resolutionNote ?? ''}</td>
</tr>`,
  );
  const body =
    rows.length === 0
      ? emptyState(T.noDisputes)
      : table(T.disputesHeading, [T.columnTime, T.columnToken, { num: T.columnAmount }, T.columnStatus, 'Resolved', T.columnResolution], rows);
  return section('disputes', T.disputesHeading, body);
}

export function conflictsSection(timeline: PaymentTimeline): SafeHtml {
  const rows = timeline.conflicts.map(
    (conflict) => html`<tr>
  <td>${timeOf(conflict.createdAt)}</td><td>${conflict.source === 'callback' ? CAUSE_LABELS.callback : CAUSE_LABELS.status_check}</td>
  <td>${statusBadge(conflict.paymentStatus)} → ${statusBadge(conflict.reportedStatus)}</td>
  <td>${conflict.resolution === null ? 'open' : html`${conflict.resolution}${conflict.resolvedAt === null ? '' : html` · ${timeOf(conflict.resolvedAt)}`}`}</td>
</tr>`,
  );
  const body =
    rows.length === 0
      ? emptyState(T.noConflicts)
      : html`<p>${T.conflictsIntro}</p>${table(T.conflictsHeading, [T.columnTime, 'Source', 'Kept → reported', T.columnResolution], rows)}`;
  return section('conflicts', T.conflictsHeading, body);
}

export function exchangesSection(timeline: PaymentTimeline): SafeHtml {
  const rows = timeline.logs.map((log) => {
    const entry = isObject(log.entry) ? log.entry : {};
    const duration = typeof entry['duration'] === 'number' ? `${Math.round(entry['duration'] * 1000)} ms` : '';
    const json = JSON.stringify(log.entry, null, 2);
    const shown = json.length > ENTRY_CHARS_MAX ? `${json.slice(0, ENTRY_CHARS_MAX)}\n… (cut here: the API's GET of the payment has it whole)` : json;
    return html`<tr>
  <td>${timeOf(log.createdAt)}</td><td>${EXCHANGE_LABELS[log.kind] ?? log.kind}</td><td>${answerOf(entry)}</td><td class="num">${duration}</td>
  <td><details><summary>${T.showExchange}</summary><pre class="exchange">${shown}</pre></details></td>
</tr>`;
  });
  const body =
    rows.length === 0
      ? emptyState(T.noExchanges)
      : html`<p>${T.exchangesIntro}</p>${table(T.exchangesHeading, [T.columnTime, T.columnWhat, T.columnAnswer, { num: T.columnDuration }, ''], rows)}`;
  return section('exchanges', T.exchangesHeading, body);
}

// What the other side answered, in a word: the status it reported, the HTTP status, or why there was no answer.
function answerOf(entry: Record<string, unknown>): string {
  const response = entry['response'];
  if (isObject(response)) {
    if (typeof response['status'] === 'string') return response['status'];
    if (typeof response['kind'] === 'string') return response['kind'].replaceAll('_', ' ');
  }
  if (typeof entry['refused'] === 'string') return `refused: ${entry['refused']}`;
  return typeof entry['status'] === 'number' ? `HTTP ${entry['status']}` : '';
}

export function postingsSection(currencies: CurrencyTable, timeline: PaymentTimeline, perspective: TimelinePerspective): SafeHtml {
  const rows = timeline.postings.map(
    (posting) => html`<tr>
  <td>${timeOf(posting.createdAt)}</td><td>${kindLabel(posting.kind)}</td>
  <td><ul class="entries">${posting.entries.map(
    (entry) =>
      html`<li>${entry.account}: <span class="num">${entry.amountMinor > 0 ? '+' : ''}${amountText(currencies, entry.amountMinor, posting.currency)}</span></li>`,
  )}</ul></td>
</tr>`,
  );
  const body =
    rows.length === 0
      ? emptyState(TIMELINE_PERSPECTIVE_TEXTS[perspective].noPostings)
      : table(T.postingsHeading, [T.columnTime, T.columnEvent, T.columnAccount], rows);
  return section('postings', T.postingsHeading, body);
}

function kindLabel(kind: string): string {
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
