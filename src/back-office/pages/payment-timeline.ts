import type { FastifyRequest } from 'fastify';
import { FINAL_STATUSES, type PaymentTimeline } from '../../payments/index.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../platform/lib/html.ts';
import { amountText } from './amount-text.ts';
import { notificationsSection } from './payment-timeline-notifications.ts';
import {
  conflictsSection,
  disputesSection,
  exchangesSection,
  postingsSection,
  refundsSection,
  section,
  statusChangesSection,
  timeOf,
} from './payment-timeline-sections.ts';
import { EXCHANGE_LABELS, timelineTexts as T, type TimelinePerspective } from './payment-timeline-texts.ts';
import { statusBadge } from './status-badge.ts';

const LIVE_POLL_S = 3;

// Who reads the timeline, as the page needs to know it: the merchant's dashboard and the operator console show the
// same payment page, each with its own links, words, actions and facts.
export interface TimelineViewer {
  base: '/dashboard' | '/ops'; // where the viewer's pages are: the payment's own page, its disputes, the resend form
  perspective: TimelinePerspective;
  mayResend: boolean; // the Resend button (the route checks the role again when it is sent)
  actions: SafeHtml; // the Actions section's content: what this viewer may do with the payment now
  facts: SafeHtml | ''; // more of the summary (the console: whose payment it is)
}

// The payment's page: what it is, what the viewer may do with it now, and its whole history.
export function paymentTimelineView(
  request: FastifyRequest,
  viewer: TimelineViewer,
  currencies: CurrencyTable,
  timeline: PaymentTimeline,
  notice: SafeHtml | '',
): SafeHtml {
  return html`<p><a href="${viewer.base}/payments">← ${T.back}</a></p>
${notice}
${liveSections(
  viewer,
  timeline,
  html`${summarySection(currencies, timeline, viewer.facts)}
${section('actions', T.actionsHeading, viewer.actions)}
${statusChangesSection(timeline)}`,
)}
${refundsSection(currencies, timeline)}
${disputesSection(currencies, timeline, viewer.base)}
${conflictsSection(timeline)}
${notificationsSection(request, viewer, timeline)}
${exchangesSection(timeline)}
${postingsSection(currencies, timeline, viewer.perspective)}`;
}

// While the payment is not final, its summary, actions and status changes follow it (htmx asks for the page again
// every few seconds and swaps in this part); the part of a final payment asks no more, so the polling stops.
function liveSections(viewer: TimelineViewer, timeline: PaymentTimeline, sections: SafeHtml): SafeHtml {
  const { payment } = timeline;
  if ((FINAL_STATUSES as readonly string[]).includes(payment.status)) return html`<div id="timeline-live">${sections}</div>`;
  return html`<div id="timeline-live" hx-get="${viewer.base}/payments/${payment.token}" hx-trigger="every ${LIVE_POLL_S}s" hx-select="#timeline-live" hx-swap="outerHTML">
<p class="note" role="status">${T.following}</p>
${sections}</div>`;
}

function summarySection(currencies: CurrencyTable, timeline: PaymentTimeline, facts: SafeHtml | ''): SafeHtml {
  const { payment } = timeline;
  const money = (minor: number) => amountText(currencies, minor, payment.currency);
  const fact = (term: string, value: SafeHtml | string | null) => (value === null || value === '' ? '' : html`<dt>${term}</dt><dd>${value}</dd>`);
  return section(
    'summary',
    T.summaryHeading,
    html`<dl class="facts">
  ${fact(T.columnToken, html`<code>${payment.token}</code>`)}
  ${fact(T.columnStatus, statusBadge(payment.status))}
  ${facts}
  ${fact(T.columnKind, payment.operationType === 'payout' ? T.kindPayout : T.kindPay)}
  ${fact(T.columnAmount, money(payment.amountMinor))}
  ${fact(T.captured, payment.capturedMinor === null ? null : money(payment.capturedMinor))}
  ${fact(T.refunded, payment.refundedMinor === 0 ? null : money(payment.refundedMinor))}
  ${fact(T.refundable, timeline.refundableMinor === 0 ? null : money(timeline.refundableMinor))}
  ${fact(T.columnCreated, timeOf(payment.createdAt))}
  ${fact(T.orderNumber, payment.orderNumber)}
  ${fact(T.columnProduct, payment.product)}
  ${fact(T.card, payment.cardMask === null ? null : html`<code>${payment.cardMask}</code>`)}
  ${fact(T.customer, payment.customer?.email ?? null)}
  ${fact(T.gateway, payment.gatewayAlias)}
  ${fact(T.authorizedUntil, payment.status === 'authorized' && payment.authorizedUntil !== null ? timeOf(payment.authorizedUntil) : null)}
  ${fact(T.declineReason, payment.declineReason)}
  ${fact(T.inFlight, inFlight(payment))}
</dl>`,
  );
}

// An exchange with the gateway not answered yet (its lease not lapsed): actions and checks wait for it.
function inFlight(payment: PaymentTimeline['payment']): SafeHtml | null {
  if (payment.exchangeKind === null || payment.exchangeUntil === null || payment.exchangeUntil <= new Date()) return null;
  return html`${EXCHANGE_LABELS[payment.exchangeKind] ?? payment.exchangeKind}, until ${timeOf(payment.exchangeUntil)}`;
}
