import type { FastifyRequest } from 'fastify';
import type { PaymentTimeline } from '../../payments/index.ts';
import { html, type SafeHtml } from '../../platform/lib/html.ts';
import { csrfField } from './document.ts';
import { section, timeOf } from './payment-timeline-sections.ts';
import { TIMELINE_PERSPECTIVE_TEXTS, timelineTexts as T, type TimelinePerspective } from './payment-timeline-texts.ts';
import { statusBadge } from './status-badge.ts';

type NotificationRow = PaymentTimeline['notifications'][number];

// The notifications the payment queued for the merchant's callback URL (outbox rows: what each told, its delivery,
// its next try) and every delivery attempt with the answer; the Resend button for a viewer who may resend, posting to
// `${base}/payments/<token>/notifications/resend`.
export function notificationsSection(
  request: FastifyRequest,
  viewer: { base: string; perspective: TimelinePerspective; mayResend: boolean },
  timeline: PaymentTimeline,
): SafeHtml {
  const { payment } = timeline;
  const heading = TIMELINE_PERSPECTIVE_TEXTS[viewer.perspective].notificationsHeading;
  const rows = timeline.notifications.map(
    (row) => html`<tr>
  <td>${timeOf(row.createdAt)}</td><td>${row.eventSequence ?? ''}</td><td>${eventOf(row)}</td><td>${toldOf(row)}</td>
  <td>${deliveryOf(row)}</td><td>${row.doneAt === null ? timeOf(row.dueAt) : ''}</td>
  <td><code>${row.eventId ?? ''}</code></td>
</tr>`,
  );
  const queued =
    rows.length === 0
      ? html`<p class="empty">${T.noNotifications}</p>`
      : html`<div class="table-wrap"><table><caption class="visually-hidden">${heading}</caption><thead><tr>
  <th scope="col">${T.columnTime}</th><th scope="col">#</th><th scope="col">${T.columnEvent}</th><th scope="col">${T.columnTold}</th>
  <th scope="col">${T.columnDelivery}</th><th scope="col">${T.columnNextTry}</th><th scope="col">Event id</th>
</tr></thead><tbody>${rows}</tbody></table></div>`;
  const resend = viewer.mayResend
    ? html`<form method="post" action="${viewer.base}/payments/${payment.token}/notifications/resend" class="inline">
  ${csrfField(request)}
  <button type="submit" class="secondary" data-confirm="${T.resendConfirm}">${T.resend}</button>
</form>`
    : '';
  return section(
    'notifications',
    heading,
    html`${payment.callbackUrl === null ? '' : html`<p>Callback URL: <code>${payment.callbackUrl}</code></p>`}
${queued}
${resend}
<h3 id="attempts">${T.attemptsHeading}</h3>
${attemptsTable(timeline)}`,
  );
}

function attemptsTable(timeline: PaymentTimeline): SafeHtml {
  if (timeline.attempts.length === 0) return html`<p class="empty">${T.noAttempts}</p>`;
  const rows = timeline.attempts.map(
    (attempt) => html`<tr>
  <td>${timeOf(attempt.createdAt)}</td><td class="num">${attempt.attemptNumber}</td><td>${
    attempt.responseStatus === null ? (attempt.error ?? '') : `HTTP ${attempt.responseStatus}${attempt.error ? ` · ${attempt.error}` : ''}`
  }</td>
  <td class="num">${attempt.durationMs} ms</td><td><code>${attempt.eventId}</code></td>
</tr>`,
  );
  return html`<div class="table-wrap"><table><caption class="visually-hidden">${T.attemptsHeading}</caption><thead><tr>
  <th scope="col">${T.columnTime}</th><th scope="col" class="num">${T.columnAttempt}</th><th scope="col">${T.columnAnswer}</th>
  <th scope="col" class="num">${T.columnDuration}</th><th scope="col">Event id</th>
</tr></thead><tbody>${rows}</tbody></table></div>`;
}

function eventOf(row: NotificationRow): string {
  const kind = row.eventSnapshot?.kind ?? 'payment';
  return kind === 'payment' ? 'Payment status' : `${kind.charAt(0).toUpperCase()}${kind.slice(1)}`;
}

function toldOf(row: NotificationRow): SafeHtml | string {
  const snapshot = row.eventSnapshot;
  if (snapshot === null) return '';
  const status = snapshot.kind === 'payment' || snapshot.record === null ? snapshot.payment.status : snapshot.record.status;
  return statusBadge(status);
}

function deliveryOf(row: NotificationRow): string {
  if (row.doneAt === null) return T.deliveryOpen(row.attempts);
  return row.lastError === null ? T.delivered : `${T.deliveryGaveUp}: ${row.lastError}`;
}
