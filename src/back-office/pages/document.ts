import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../platform/lib/html.ts';
import { assetUrl } from './assets.ts';

// The frame every back-office page (the dashboard's and the console's) is sent in: one document shell, one strict
// Content-Security-Policy. Scripts and styles only from the assets (script-src 'self'; no inline script or style).

export type PageScript = 'uplot.js' | 'charts.js';

const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export function documentShell(title: string, inner: SafeHtml, scripts: readonly PageScript[], bodyClass = ''): SafeHtml {
  const extraStyles = scripts.includes('uplot.js') ? html`<link rel="stylesheet" href="${assetUrl('uplot.css')}">` : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Payrail</title>
<link rel="stylesheet" href="${assetUrl('dashboard.css')}">${extraStyles}
<script src="${assetUrl('htmx.js')}" defer></script>
<script src="${assetUrl('dashboard.js')}" defer></script>
${scripts.map((name) => html`<script src="${assetUrl(name)}" defer></script>`)}
</head>
<body${bodyClass ? html` class="${bodyClass}"` : ''}>
<a class="skip" href="#main">Skip to content</a>
${inner}
</body>
</html>`;
}

export function sendHtml(reply: FastifyReply, status: number, document: SafeHtml): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('content-security-policy', CONTENT_SECURITY_POLICY).send(document.html);
}

// Every state-changing form carries the page's CSRF token.
export function csrfField(request: FastifyRequest): SafeHtml {
  return html`<input type="hidden" name="_csrf" value="${request.csrfToken}">`;
}
