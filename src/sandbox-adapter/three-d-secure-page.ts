// The HTML of the sandbox 3-D Secure emulation (spec 1: a page with two buttons, success / failure).
// Self-contained: no script, no third-party resource; the CSP below forbids everything else.
import { ISO_4217_EXPONENTS } from '../platform/lib/currencies.ts';
import { formatAmount } from '../platform/lib/format-amount.ts';
import { faviconDataUrl } from '../platform/lib/favicon.ts';
import { threeDSecureText, type ThreeDSecureLocale, type ThreeDSecureText } from './three-d-secure-texts.ts';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

// form-action must allow the TermUrl origin too: browsers apply it to the redirect that follows the form post.
// frame-ancestors 'none' (with X-Frame-Options: DENY, routes.ts): no other page may frame the buttons (clickjacking).
// img-src data: is the inlined favicon, nothing fetched.
export function threeDSecureCsp(termUrl: string | null): string {
  const termOrigin = termUrl === null ? null : originOf(termUrl);
  return `default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action 'self'${termOrigin === null ? '' : ` ${termOrigin}`}; frame-ancestors 'none'`;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

// The checkout's amount format (domain/format-amount.ts). The sandbox has no currency table of its own: an ISO
// 4217 currency gets its exponent, a configured one (USDT) is shown in minor units, said so.
function amountText(amountMinor: number, currency: string, locale: ThreeDSecureLocale, text: ThreeDSecureText): string {
  const exponent = Object.hasOwn(ISO_4217_EXPONENTS, currency) ? ISO_4217_EXPONENTS[currency] : undefined;
  if (exponent !== undefined) return formatAmount(amountMinor, currency, exponent, locale);
  return text.inMinorUnits(formatAmount(amountMinor, currency, 0, locale));
}

// Narrow screens (390 px phones): smaller margins, long ids wrap, the buttons stack rather than overflow.
const STYLE = `*,*::before,*::after{box-sizing:border-box}
body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem 1rem;color:#1d2330;line-height:1.5}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem;line-height:1.3}dl{display:grid;grid-template-columns:auto minmax(0,1fr);gap:.3rem 1rem}dt{color:#5a6275}
dd{margin:0;overflow-wrap:anywhere;font-variant-numeric:tabular-nums}
.actions{display:flex;flex-wrap:wrap;gap:1rem;margin-top:1.5rem}
button{flex:1 1 10rem;min-height:48px;padding:.7rem;border:0;border-radius:6px;font:inherit;cursor:pointer}
.success{background:#1f7a3d;color:#fff}.failure{background:#b3261e;color:#fff}.note{color:#5a6275;font-size:.9rem}
p{overflow-wrap:anywhere}
.test-mode-band{margin:0 0 1rem;padding:.5rem .75rem;border:2px dashed #b54708;border-radius:6px;color:#b54708;font-weight:700;text-align:center}
@media (max-width:480px){body{padding:1rem .75rem}main{padding:1.25rem 1rem}}`;

function layout(text: ThreeDSecureText, body: string): string {
  return `<!doctype html>
<html lang="${escapeHtml(text.htmlLang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(text.title)}</title>
<link rel="icon" href="${faviconDataUrl()}" type="image/svg+xml">
<style>${STYLE}</style>
</head>
<body>
<main>
<p id="test-mode-band" class="test-mode-band" role="note">${escapeHtml(text.testModeBand)}</p>
${body}
</main>
</body>
</html>
`;
}

export interface ChallengePageInput {
  locale: ThreeDSecureLocale;
  completeUrl: string;
  amountMinor: number;
  currency: string;
  panMasked: string | null;
  transactionId: string;
}

export function renderChallengePage(input: ChallengePageInput): string {
  const text = threeDSecureText(input.locale);
  return layout(
    text,
    `<h1>${escapeHtml(text.title)}</h1>
<p class="note">${escapeHtml(text.note)}</p>
<dl>
<dt>${escapeHtml(text.amountLabel)}</dt><dd id="amount">${escapeHtml(amountText(input.amountMinor, input.currency, input.locale, text))}</dd>
<dt>${escapeHtml(text.cardLabel)}</dt><dd>${escapeHtml(input.panMasked ?? text.unknownCard)}</dd>
<dt>${escapeHtml(text.transactionLabel)}</dt><dd>${escapeHtml(input.transactionId)}</dd>
</dl>
<form method="post" action="${escapeHtml(input.completeUrl)}">
<div class="actions">
<button type="submit" name="outcome" value="success" class="success">${escapeHtml(text.successButton)}</button>
<button type="submit" name="outcome" value="failure" class="failure">${escapeHtml(text.failureButton)}</button>
</div>
</form>`,
  );
}

export function renderCompletedPage(locale: ThreeDSecureLocale, status: string, termUrl: string | null): string {
  const text = threeDSecureText(locale);
  const link = termUrl === null ? '' : `<p><a href="${escapeHtml(termUrl)}">${escapeHtml(text.returnLink)}</a></p>`;
  return layout(
    text,
    `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(text.alreadyComplete(status))}</p>
${link}`,
  );
}

export function renderErrorPage(locale: ThreeDSecureLocale, message: (text: ThreeDSecureText) => string): string {
  const text = threeDSecureText(locale);
  return layout(
    text,
    `<h1>${escapeHtml(text.title)}</h1>
<p>${escapeHtml(message(text))}</p>`,
  );
}
