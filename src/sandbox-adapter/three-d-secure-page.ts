// The HTML of the sandbox 3-D Secure emulation (spec 1: a page with two buttons, success / failure).
// Self-contained: no script, no third-party resource; the CSP below forbids everything else.

const THREE_D_SECURE_PAGE_TITLE = 'Sandbox 3-D Secure';
const SUCCESS_BUTTON_LABEL = 'Authentication successful';
const FAILURE_BUTTON_LABEL = 'Authentication failed';

const HTML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

// form-action must allow the TermUrl origin too: browsers apply it to the redirect that follows the form post.
// frame-ancestors 'none' (with X-Frame-Options: DENY, routes.ts): no other page may frame the buttons (clickjacking).
export function threeDSecureCsp(termUrl: string | null): string {
  const termOrigin = termUrl === null ? null : originOf(termUrl);
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${termOrigin === null ? '' : ` ${termOrigin}`}; frame-ancestors 'none'`;
}

function originOf(url: string): string | null {
  try {
    const origin = new URL(url).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}

// Amount in major units when the currency is one Intl knows, else in minor units.
function formatAmount(amountMinor: number, currency: string): string {
  try {
    const format = new Intl.NumberFormat('en', { style: 'currency', currency });
    const fractionDigits = format.resolvedOptions().maximumFractionDigits ?? 2;
    return format.format(amountMinor / 10 ** fractionDigits);
  } catch {
    return `${amountMinor} (minor units) ${currency}`;
  }
}

const STYLE = `body{font-family:system-ui,sans-serif;background:#f4f5f7;margin:0;padding:2rem;color:#1d2330}
main{max-width:28rem;margin:0 auto;background:#fff;border-radius:8px;padding:1.5rem 2rem;box-shadow:0 1px 4px #0002}
h1{font-size:1.3rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.3rem 1rem}dt{color:#5a6275}
.actions{display:flex;gap:1rem;margin-top:1.5rem}button{flex:1;padding:.7rem;border:0;border-radius:6px;font-size:1rem;cursor:pointer}
.success{background:#1f7a3d;color:#fff}.failure{background:#b3261e;color:#fff}.note{color:#5a6275;font-size:.9rem}`;

function layout(body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(THREE_D_SECURE_PAGE_TITLE)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

export interface ChallengePageInput {
  completeUrl: string;
  amountMinor: number;
  currency: string;
  panMasked: string | null;
  transactionId: string;
}

export function renderChallengePage(input: ChallengePageInput): string {
  return layout(`<h1>${escapeHtml(THREE_D_SECURE_PAGE_TITLE)}</h1>
<p class="note">This is the Payrail sandbox. No bank is involved: choose how the cardholder authentication ends.</p>
<dl>
<dt>Amount</dt><dd>${escapeHtml(formatAmount(input.amountMinor, input.currency))}</dd>
<dt>Card</dt><dd>${escapeHtml(input.panMasked ?? 'unknown')}</dd>
<dt>Transaction</dt><dd>${escapeHtml(input.transactionId)}</dd>
</dl>
<form method="post" action="${escapeHtml(input.completeUrl)}">
<div class="actions">
<button type="submit" name="outcome" value="success" class="success">${escapeHtml(SUCCESS_BUTTON_LABEL)}</button>
<button type="submit" name="outcome" value="failure" class="failure">${escapeHtml(FAILURE_BUTTON_LABEL)}</button>
</div>
</form>`);
}

export function renderCompletedPage(status: string, termUrl: string | null): string {
  const link = termUrl === null ? '' : `<p><a href="${escapeHtml(termUrl)}">Return to the merchant</a></p>`;
  return layout(`<h1>${escapeHtml(THREE_D_SECURE_PAGE_TITLE)}</h1>
<p>Authentication is already complete; the transaction is ${escapeHtml(status)}.</p>
${link}`);
}

export function renderErrorPage(message: string): string {
  return layout(`<h1>${escapeHtml(THREE_D_SECURE_PAGE_TITLE)}</h1>
<p>${escapeHtml(message)}</p>`);
}
