import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { roleMay } from '../../domain/roles.ts';
import { csrfField, documentShell, sendHtml, type PageScript } from '../../pages/document.ts';
import { t, type TextKey } from './texts.ts';

// Every dashboard page in one frame: skip link, navigation, the test-mode switch and banner, one h1, main content.
// Scripts and styles only from /dashboard/assets (CSP script-src 'self'; no inline script, no inline style).

type NavArea = 'home' | 'payments' | 'payouts' | 'refunds' | 'disputes' | 'balance' | 'developers' | 'settings' | 'none';

const NAV: readonly { area: NavArea; href: string; label: TextKey }[] = [
  { area: 'home', href: '/dashboard', label: 'nav.home' },
  { area: 'payments', href: '/dashboard/payments', label: 'nav.payments' },
  { area: 'payouts', href: '/dashboard/payouts', label: 'nav.payouts' },
  { area: 'refunds', href: '/dashboard/refunds', label: 'nav.refunds' },
  { area: 'disputes', href: '/dashboard/disputes', label: 'nav.disputes' },
  { area: 'balance', href: '/dashboard/balance', label: 'nav.balance' },
  { area: 'developers', href: '/dashboard/developers', label: 'nav.developers' },
  { area: 'settings', href: '/dashboard/settings', label: 'nav.settings' },
];

export interface PageContent {
  title: string; // the h1 and the <title>
  area: NavArea;
  body: SafeHtml;
  status?: number;
  scripts?: readonly PageScript[];
}

function modeSwitch(request: FastifyRequest, viewer: DashboardViewer): SafeHtml {
  const live = viewer.environment === 'production';
  return html`<form method="post" action="/dashboard/mode" class="mode-switch">
  ${csrfField(request)}
  <input type="hidden" name="environment" value="${live ? 'sandbox' : 'production'}">
  <input type="hidden" name="back" value="${request.url.startsWith('/dashboard') ? request.url : '/dashboard'}">
  <span class="mode-label ${live ? 'live' : 'test'}">${live ? t('mode.production') : t('mode.sandbox')}</span>
  <button type="submit">${live ? t('mode.switchToTest') : t('mode.switchToLive')}</button>
</form>`;
}

// A page for a signed-in member.
export function memberPage(request: FastifyRequest, reply: FastifyReply, content: PageContent): FastifyReply {
  const viewer = request.viewer;
  if (!viewer) throw new Error('memberPage without a viewer');
  const nav = NAV.map((item) => html`<li><a href="${item.href}"${item.area === content.area ? html` aria-current="page"` : ''}>${t(item.label)}</a></li>`);
  const banners = [
    viewer.environment === 'sandbox' ? html`<p class="banner test" role="status">${t('mode.sandboxBanner')}</p>` : '',
    viewer.merchantReviewStatus === 'pending_review' ? html`<p class="banner review">${t('review.pending')}</p>` : '',
    viewer.merchantReviewStatus === 'rejected' ? html`<p class="banner error">${t('review.rejected')} ${viewer.merchantReviewNote ?? ''}</p>` : '',
    viewer.merchantActive ? '' : html`<p class="banner error">${t('merchant.disabled')}</p>`,
  ];
  const inner = html`<header class="top ${viewer.environment === 'sandbox' ? 'test' : 'live'}">
  <a class="brand" href="/dashboard">${t('app.name')} · ${viewer.merchantName}</a>
  ${modeSwitch(request, viewer)}
  <form method="post" action="/dashboard/logout" class="logout">${csrfField(request)}<button type="submit">${t('nav.logout')}</button></form>
</header>
<nav aria-label="Dashboard"><ul>${nav}</ul></nav>
${banners}
<main id="main" tabindex="-1">
<h1>${content.title}</h1>
${content.body}
</main>
<footer><span>${viewer.email} · ${viewer.role}</span></footer>`;
  return sendHtml(reply, content.status ?? 200, documentShell(content.title, inner, content.scripts ?? []));
}

// A page for someone not signed in (sign-up, sign-in, links).
export function publicPage(reply: FastifyReply, content: { title: string; body: SafeHtml; status?: number }): FastifyReply {
  const inner = html`<header class="top public"><a class="brand" href="/dashboard/login">${t('app.name')} · ${t('app.dashboard')}</a></header>
<main id="main" tabindex="-1" class="narrow">
<h1>${content.title}</h1>
${content.body}
</main>`;
  return sendHtml(reply, content.status ?? 200, documentShell(content.title, inner, []));
}

// What the page shows of an action the viewer's role may not take: nothing.
export function ifAllowed(viewer: DashboardViewer, action: Parameters<typeof roleMay>[1], markup: SafeHtml): SafeHtml | '' {
  return roleMay(viewer.role, action) ? markup : '';
}
