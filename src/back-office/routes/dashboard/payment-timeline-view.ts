import type { FastifyRequest } from 'fastify';
import type { PaymentTimeline } from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { roleMay } from '../../domain/roles.ts';
import { paymentTimelineView } from '../../pages/payment-timeline.ts';
import { paymentTexts as T } from './texts-payments.ts';

// The payment's page as a member sees it (the page itself: pages/payment-timeline.ts): the merchant's words, the
// actions the payment's state admits and the member's role allows, the Resend button for a role that may resend.
export function dashboardTimelineView(
  request: FastifyRequest,
  viewer: DashboardViewer,
  currencies: CurrencyTable,
  timeline: PaymentTimeline,
  notice: SafeHtml | '',
): SafeHtml {
  const frame = {
    base: '/dashboard',
    perspective: 'merchant',
    mayResend: roleMay(viewer.role, 'resend'),
    actions: actionLinks(viewer, timeline),
    facts: '',
  } as const;
  return paymentTimelineView(request, frame, currencies, timeline, notice);
}

// Links to each action's confirmation page, for the actions the payment's state admits and the role allows; the
// flow behind each decides again when it is sent.
function actionLinks(viewer: DashboardViewer, timeline: PaymentTimeline): SafeHtml {
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
  return links.length === 0 ? html`<p class="empty">${T.noActions}</p>` : html`<p class="action-links">${links}</p>`;
}
