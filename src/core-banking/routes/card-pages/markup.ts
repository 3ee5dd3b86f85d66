import { createHash } from 'node:crypto';

import { html, raw, type SafeHtml } from '../../../platform/lib/html.ts';

// The hosted card pages' document: no script at all, one inline stylesheet allowed by its hash; every
// interpolation escaped by lib/html.ts unless it is SafeHtml we wrote.

const STYLESHEET = `
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#eef1f5;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2430}
main{background:#fff;border-radius:12px;box-shadow:0 2px 12px rgba(0,0,0,.08);padding:24px 28px;width:min(360px,90vw)}
h1{font-size:1.2rem;margin:0 0 16px}
dl{margin:0}dt{font-size:.8rem;color:#5b6675;margin-top:12px}dd{margin:0;font-size:1.1rem;font-variant-numeric:tabular-nums;letter-spacing:.04em}
.holder{text-transform:uppercase}
label{display:block;font-size:.9rem;margin-top:12px}
input{box-sizing:border-box;width:100%;font-size:1.4rem;letter-spacing:.4em;padding:8px 10px;border:1px solid #b8c1cc;border-radius:8px}
button{margin-top:18px;width:100%;padding:10px;font-size:1rem;border:0;border-radius:8px;background:#1f5fd6;color:#fff}
.error{color:#b3261e;margin:12px 0 0}.note{color:#5b6675;font-size:.85rem;margin:16px 0 0}
`.trim();

// No script (default-src 'none' covers it), this one stylesheet, forms only back to us, never inside a frame.
export const CARD_PAGE_CSP = [
  "default-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLESHEET, 'utf8').digest('base64')}'`,
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function renderCardDocument(title: string, main: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="robots" content="noindex, nofollow">
<title>${title}</title>
<style>${raw(STYLESHEET)}</style>
</head>
<body>
<main>
${main}
</main>
</body>
</html>
`.html;
}
