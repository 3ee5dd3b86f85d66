import type { FastifyRequest } from 'fastify';
import { FINAL_STATUSES, type PaymentTimeline } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { roleMay } from '../../domain/roles.ts';
import { amountText } from './amount-text.ts';
import { notificationsSection } from './payment-notifications-view.ts';
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
import { statusBadge } from './payments-list-view.ts';
import { EXCHANGE_LABELS, paymentTexts as T } from './texts-payments.ts';

const LIVE_POLL_S = 3;

// The payment's page: what it is, what the viewer's role may do with it now, and its whole history.
export function paymentTimelineView(
  request: FastifyRequest,
  viewer: DashboardViewer,
  currencies: CurrencyTable,
  timeline: PaymentTimeline,
  notice: SafeHtml | '',
): SafeHtml {
  return html`<p><a href="/dashboard/payments">← ${T.back}</a></p>
${notice}
${liveSections(
  timeline,
  html`${summarySection(currencies, timeline)}
${actionsSection(viewer, timeline)}
${statusChangesSection(timeline)}`,
)}
${refundsSection(currencies, timeline)}
${disputesSection(currencies, timeline)}
${conflictsSection(timeline)}
${notificationsSection(request, viewer, timeline)}
${exchangesSection(timeline)}
${postingsSection(currencies, timeline)}`;
}

// While the payment is not final, its summary, actions and status changes follow it (htmx asks for the page again
// every few seconds and swaps in this part); the part of a final payment asks no more, so the polling stops.
function liveSections(timeline: PaymentTimeline, sections: SafeHtml): SafeHtml {
  const { payment } = timeline;
  if ((FINAL_STATUSES as readonly string[]).includes(payment.status)) return html`<div id="timeline-live">${sections}</div>`;
  return html`<div id="timeline-live" hx-get="/dashboard/payments/${payment.token}" hx-trigger="every ${LIVE_POLL_S}s" hx-select="#timeline-live" hx-swap="outerHTML">
<p class="note" role="status">${T.following}</p>
${sections}</div>`;
}

function summarySection(currencies: CurrencyTable, timeline: PaymentTimeline): SafeHtml {
  const { payment } = timeline;
  const money = (minor: number) => amountText(currencies, minor, payment.currency);
  const fact = (term: string, value: SafeHtml | string | null) => (value === null || value === '' ? '' : html`<dt>${term}</dt><dd>${value}</dd>`);
  return section(
    'summary',
    T.summaryHeading,
    html`<dl class="facts">
  ${fact(T.columnToken, html`<code>${payment.token}</code>`)}
  ${fact(T.columnStatus, statusBadge(payment.status))}
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

// Links to each action's confirmation page, for the actions the payment's state admits and the role allows; the
// flow behind each decides again when it is sent.
function actionsSection(viewer: DashboardViewer, timeline: PaymentTimeline): SafeHtml {
  const { payment } = timeline;
  const href = (action: string) => `/dashboard/payments/${payment.token}/${action}`;
  const links: SafeHtml[] = [];
  if (roleMay(viewer.role, 'refund')) {
    if (timeline.refundableMinor > 0) links.push(html`<a class="button" href="${href('refund')}">${T.refund}</a>`);
    if (payment.status === 'authorized') {
      links.push(html`<a class="button" href="${href('capture')}">${T.capture}</a>`, html`<a class="button secondary" href="${href('void')}">${T.void}</a>`);
    }
    if (payment.status === 'init' && payment.operationType === 'pay') links.push(html`<a class="button secondary" href="${href('cancel')}">${T.cancel}</a>`);
  }
  return section('actions', T.actionsHeading, links.length === 0 ? html`<p class="empty">${T.noActions}</p>` : html`<p class="action-links">${links}</p>`);
}
