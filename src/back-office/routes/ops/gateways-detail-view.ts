import type { FastifyRequest } from 'fastify';
import type { GatewayCheckReport, GatewayRow } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { GatewayFormField, GatewayFormValues } from '../../domain/gateway-form.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { statusBadge } from '../../pages/status-badge.ts';

// A gateway's facts, its status and check actions (gateways.write), its settings read-only for the other roles
// (secrets as "set", never their value), and the adapter check's report.

export function gatewayFactsView(gateway: GatewayRow): SafeHtml {
  return html`<dl class="facts">
  <dt>Id</dt><dd>#${gateway.id}</dd>
  <dt>Merchant</dt><dd><a href="/ops/merchants/${gateway.merchantId}">#${gateway.merchantId}</a></dd>
  <dt>Alias</dt><dd><code>${gateway.alias}</code></dd>
  <dt>Environment</dt><dd>${gateway.environment}</dd>
  <dt>Status</dt><dd>${statusBadge(gateway.status)}</dd>
  <dt>Updated</dt><dd><time datetime="${gateway.updatedAt.toISOString()}">${utcMinute(gateway.updatedAt)}</time></dd>
</dl>`;
}

export function gatewayActionsView(request: FastifyRequest, gateway: GatewayRow): SafeHtml {
  const status =
    gateway.status === 'active'
      ? html`<a class="button secondary" href="/ops/gateways/${gateway.id}/disable">Disable…</a>`
      : html`<form method="post" action="/ops/gateways/${gateway.id}/enable" class="inline">${csrfField(request)}<button type="submit">Enable the gateway</button></form>`;
  return html`<div>${status}
<form method="post" action="/ops/gateways/${gateway.id}/check" class="inline">${csrfField(request)}<button type="submit" class="secondary">Check adapter</button></form></div>`;
}

export function gatewaySettingsReadOnlyView(fields: readonly GatewayFormField[], values: GatewayFormValues): SafeHtml {
  const shown = fields.flatMap((field) => {
    const rows = values.rows[field.name] ?? [];
    const text = field.rows === null ? (values.values[field.name] ?? '') : rows.map((row) => `${row.key}: ${row.value}`).join('\n');
    return text === '' ? [] : [html`<dt><code>${field.name}</code></dt><dd class="prewrap">${text}</dd>`];
  });
  return html`<section aria-labelledby="settings-heading"><h2 id="settings-heading">Settings</h2><dl class="facts">${shown}</dl></section>`;
}

export function gatewayCheckView(report: GatewayCheckReport): SafeHtml {
  const count = (verdict: string) => report.checks.filter((check) => check.verdict === verdict).length;
  return html`<p class="${report.passed ? 'ok' : 'error'}" role="status">${report.passed ? 'The adapter passed the checks it was given.' : 'The adapter failed a check, or none ran.'}
  ${count('pass')} passed, ${count('fail')} failed, ${count('unsupported')} unsupported, in ${report.durationMs} ms.</p>
<dl class="facts">
  <dt>Adapter</dt><dd>${report.adapterUrl ?? '(none)'} ${report.processingMethod ?? ''}</dd>
</dl>
<div class="table-wrap"><table>
<caption>Each check of the conformance suite</caption>
<thead><tr><th scope="col">Check</th><th scope="col">Verdict</th><th scope="col">Why</th></tr></thead>
<tbody>${report.checks.map(
    (check) => html`<tr><th scope="row"><code>${check.id}</code></th><td>${statusBadge(check.verdict)}</td><td>${check.message}</td></tr>`,
  )}</tbody>
</table></div>
<p><a href="/ops/gateways/${report.gatewayId}">Back to the gateway</a></p>`;
}
