// The page Acme Pay shows a customer whose charge needs a challenge (3-D Secure style). A simulator page: the
// customer picks the outcome.

const CHALLENGE_PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

export interface HtmlPage {
  html: string;
  csp: string;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}

function layout(title: string, body: string): HtmlPage {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem}button{margin:.25rem;padding:.5rem 1rem}</style>
</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
  return { html, csp: CHALLENGE_PAGE_CSP };
}

export function challengePage(chargeId: string, amountText: string): HtmlPage {
  const action = `/challenge/${encodeURIComponent(chargeId)}`;
  return layout(
    'Acme Pay verification',
    `<p>Confirm the payment of <strong>${escapeHtml(amountText)}</strong>.</p>
<form method="post" action="${escapeHtml(action)}"><button name="outcome" value="pass">Pass the challenge</button><button name="outcome" value="fail">Fail the challenge</button></form>`,
  );
}

export function messagePage(title: string, message: string): HtmlPage {
  return layout(title, `<p>${escapeHtml(message)}</p>`);
}
