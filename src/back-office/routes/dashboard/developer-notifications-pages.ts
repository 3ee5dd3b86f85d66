import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listMerchantNotifications, resendNotification, type MerchantNotification } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { recordAuditEvent } from '../../flows/audit-log.ts';
import { requireAction, viewerOf } from './guard.ts';
import { ifAllowed, memberPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';

const NOTIFICATIONS_PER_PAGE = 25;

const STATE_LABELS: Readonly<Record<MerchantNotification['state'], string>> = {
  queued: 'Queued',
  retrying: 'Failed, retrying',
  delivered: 'Delivered',
  failed: 'Failed, given up',
};

type ListQuery = { failed?: string; before?: string; resent?: string };

// The merchant's notifications across its payments, in the viewer's mode: each delivery's attempts, and Resend
// (the merchant API's POST /api/v1/payments/:token/notifications/resend flow) for the roles that may.
export async function developerNotificationsPages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;

  const show = async (request: FastifyRequest, reply: FastifyReply, query: ListQuery, notice?: SafeHtml, status = 200) => {
    const viewer = viewerOf(request);
    const failedOnly = query.failed === '1';
    const before = query.before === undefined ? null : cursorOf(query.before);
    const scope = { merchantId: viewer.merchantId, environment: viewer.environment };
    const page = await listMerchantNotifications(db, scope, { failedOnly, before, rows: NOTIFICATIONS_PER_PAGE });
    const here = (cursor: number | null) => {
      const params = new URLSearchParams(failedOnly ? { failed: '1' } : {});
      if (cursor !== null) params.set('before', String(cursor));
      const text = params.toString();
      return `/dashboard/developers/notifications${text === '' ? '' : `?${text}`}`;
    };
    const filter = failedOnly
      ? html`<p>Showing failed deliveries only. <a href="/dashboard/developers/notifications">Show all</a></p>`
      : html`<p><a href="/dashboard/developers/notifications?failed=1">Show failed deliveries only</a></p>`;
    const table =
      page.notifications.length === 0
        ? html`<p>${failedOnly ? 'No failed deliveries in this mode.' : 'No notifications in this mode yet: they are sent when a payment reaches its final status.'}</p>`
        : html`<div class="table-wrap"><table>
<caption>Notifications, newest first</caption>
<thead><tr><th scope="col">Queued</th><th scope="col">Payment</th><th scope="col">Event</th><th scope="col">Delivery</th><th scope="col">Last answer</th><th scope="col">Attempts</th><th scope="col">Next retry</th><th scope="col">Action</th></tr></thead>
<tbody>${page.notifications.map((notification) => notificationRow(request, viewer, notification))}</tbody>
</table></div>`;
    const pages = [
      before === null ? '' : html`<a href="${here(null)}">Newest</a>`,
      page.nextBefore === null ? '' : html`<a href="${here(page.nextBefore)}" rel="next">Older</a>`,
    ];
    const resent = query.resent === '1' ? html`<p class="ok" role="status">The notification was queued again, under a new event id.</p>` : '';
    const body = html`${notice ?? resent}
<p>Where the final-status notifications to your callbackUrl stand. <a href="/dashboard/developers#signatures">How to verify them</a>.</p>
${filter}
${table}
<nav aria-label="Notification pages" class="pages">${pages}</nav>
<p><a href="/dashboard/developers">Back to Developers</a></p>`;
    return memberPage(request, reply, { title: 'Notifications', area: 'developers', body, status });
  };

  app.get<{ Querystring: ListQuery }>('/developers/notifications', async (request, reply) => show(request, reply, request.query));

  app.post<{ Params: { token: string } }>('/developers/notifications/:token/resend', async (request, reply) => {
    const viewer = requireAction(request, 'resend');
    try {
      await resendNotification(db, { merchantId: viewer.merchantId, environment: viewer.environment }, request.params.token);
      await recordAuditEvent(db, { action: 'notification.resend', subjectType: 'payment', subjectId: request.params.token });
    } catch (error) {
      // Not final, or no callbackUrl: said on the list; another merchant's token is the error page's 404.
      if (!(error instanceof ApiError) || error.statusCode !== 409) throw error;
      return show(request, reply, {}, problemOf(error), 409);
    }
    return reply.redirect('/dashboard/developers/notifications?resent=1', 303);
  });
}

function cursorOf(before: string): number {
  if (!/^[1-9][0-9]{0,15}$/.test(before) || !Number.isSafeInteger(Number(before))) {
    throw new ApiError('invalid_cursor', 400, 'This page link is not valid: start again from the newest notifications.');
  }
  return Number(before);
}

function notificationRow(request: FastifyRequest, viewer: DashboardViewer, notification: MerchantNotification): SafeHtml {
  const last = notification.attemptList.at(-1);
  const answer = last === undefined ? '' : (last.responseStatus ?? last.error ?? '');
  const waiting = notification.state === 'retrying' || notification.state === 'queued';
  const attempts =
    notification.attemptList.length === 0
      ? String(notification.attemptList.length)
      : html`<details><summary>${notification.attemptList.length}</summary><ol>${notification.attemptList.map(
          (attempt) =>
            html`<li><time datetime="${attempt.createdAt.toISOString()}">${utcMinute(attempt.createdAt)}</time>: ${attempt.responseStatus ?? attempt.error ?? '—'} (${attempt.durationMs} ms)</li>`,
        )}</ol></details>`;
  const resend = ifAllowed(
    viewer,
    'resend',
    html`<form method="post" action="/dashboard/developers/notifications/${notification.paymentToken}/resend">${csrfField(request)}<button type="submit" class="secondary" aria-label="Resend the notification of payment ${notification.paymentToken}">Resend</button></form>`,
  );
  return html`<tr>
  <td><time datetime="${notification.createdAt.toISOString()}">${utcMinute(notification.createdAt)}</time></td>
  <td><a href="/dashboard/payments/${notification.paymentToken}">${notification.paymentToken.slice(0, 12)}…</a></td>
  <td>${notification.kind ?? 'payment'}</td>
  <td class="status">${STATE_LABELS[notification.state]}${notification.state === 'failed' && notification.lastError ? html`<br><small>${notification.lastError}</small>` : ''}</td>
  <td>${answer}</td>
  <td>${attempts}</td>
  <td>${waiting ? html`<time datetime="${notification.dueAt.toISOString()}">${utcMinute(notification.dueAt)}</time>` : ''}</td>
  <td>${resend}</td>
</tr>`;
}
