import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { SANDBOX_TEST_CARD_NUMBERS } from '../../../platform/lib/sandbox-test-cards.ts';
import { developerTexts as T } from './texts-developers.ts';

// The Developers page's reference parts: how to verify a notification, and the sandbox test cards.

// How the notifier signs (payments/domain/notification-signature.ts, used by workers/notifier.ts): the secret is the
// merchant's own key of the mode, so the page names it by its prefix only.
export function signatureSection(keyPrefix: string | null, modeName: string): SafeHtml {
  const key = keyPrefix === null ? html`your ${modeName} key (none issued yet)` : html`your ${modeName} secret key, <code>${keyPrefix}</code>`;
  return html`<h2 id="signatures">${T.signatureHeading}</h2>
<p>Every notification is signed with ${key}: the same key your requests send, so there is no other secret to keep. Verify the signature before trusting a notification; after a rotation, notifications are signed with the new key.</p>
<dl class="facts">
  <dt>Header</dt><dd><code>X-Payrail-Signature: t=&lt;unix seconds&gt;,v1=&lt;hex&gt;</code></dd>
  <dt>v1</dt><dd>HMAC-SHA256 of <code>&lt;t&gt;.&lt;raw body&gt;</code>, keyed with the secret key, in hexadecimal</dd>
  <dt>Freshness</dt><dd>Refuse a <code>t</code> more than five minutes away from your clock: an old notification replayed is refused too.</dd>
  <dt>Event</dt><dd><code>X-Payrail-Event-Id</code> stays the same across retries of one notification: use it to apply each one once.</dd>
  <dt>Body field</dt><dd><code>signature</code> in the body is the older MD5 signature, kept for existing integrations; prefer the header.</dd>
</dl>
<p>In Node.js, with the body exactly as it arrived (before parsing it):</p>
<pre class="code-sample"><code>import { createHmac, timingSafeEqual } from 'node:crypto';

export function verifyPayrailSignature(rawBody, header, secretKey, toleranceSeconds = 300) {
  const fields = header.split(',').map((part) =&gt; part.trim().split('='));
  const t = Number(fields.find(([name]) =&gt; name === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) &gt; toleranceSeconds) return false;
  const expected = createHmac('sha256', secretKey).update(\`\${t}.\${rawBody}\`).digest();
  return fields.some(([name, value]) =&gt;
    name === 'v1' &amp;&amp; /^[0-9a-f]{64}$/.test(value) &amp;&amp; timingSafeEqual(Buffer.from(value, 'hex'), expected));
}</code></pre>`;
}

// spec 1: the sandbox's test cards (platform/lib/sandbox-test-cards.ts). They are public test numbers, not card
// data: shown whole so they can be copied.
export function testCardsSection(): SafeHtml {
  const rows = Object.entries(SANDBOX_TEST_CARD_NUMBERS).map(
    ([scenario, number]) =>
      html`<tr><td><code>${number}</code></td><td>${scenarioLabel(scenario)}</td><td>${scenario.startsWith('payout_') ? 'Payouts' : 'Payments'}</td></tr>`,
  );
  return html`<h2 id="test-cards">${T.testCardsHeading}</h2>
<p>${T.testCardsIntro}</p>
<div class="table-wrap"><table>
<caption>${T.testCardsHeading}</caption>
<thead><tr><th scope="col">${T.columnNumber}</th><th scope="col">${T.columnScenario}</th><th scope="col">${T.columnOperation}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>
<p><a href="/api/v1/sandbox/test-cards">${T.testCardsMore}</a></p>`;
}

// three_ds_approved → "3-D Secure, approved"; timeout_then_approved → "Timeout, then approved"
export function scenarioLabel(scenario: string): string {
  const words = scenario
    .replace(/^three_ds_/, '3-D Secure, ')
    .replace(/_then_/, ', then ')
    .replace(/^(callback|status_check|secure_code|next_step|payout)_/, '$1, ')
    .replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
