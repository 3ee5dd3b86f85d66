import type { FastifyRequest } from 'fastify';
import type { PresentedCommissions } from '../../../ledger/index.ts';
import { DISPLAY_NAME_CHARS_MAX, type GatewayRow, type MerchantWithKeys } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { OperatorMerchantView } from '../../flows/ops-merchants.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { csrfField } from '../../pages/document.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { ifOperatorMay } from './layout.ts';

// One merchant: its facts, the review and status actions, display name, keys (prefixes only), commissions,
// gateways. Each action shows only to a role that may take it; the server checks again.
export function merchantDetailView(request: FastifyRequest, operator: OperatorViewer, view: OperatorMerchantView, notice: SafeHtml | ''): SafeHtml {
  const { merchant } = view;
  return html`${notice}
<dl class="facts">
  <dt>Id</dt><dd>#${merchant.id}</dd>
  <dt>Name</dt><dd>${merchant.name}</dd>
  <dt>Display name</dt><dd>${merchant.displayName ?? '(none: the checkout shows the name)'}</dd>
  <dt>Status</dt><dd>${statusBadge(merchant.status)}</dd>
  <dt>Review</dt><dd>${statusBadge(merchant.reviewStatus)}${merchant.reviewNote === null ? '' : html` <span class="note">Reason: ${merchant.reviewNote}</span>`}</dd>
  <dt>Created</dt><dd><time datetime="${merchant.createdAt.toISOString()}">${utcMinute(merchant.createdAt)}</time></dd>
  <dt>Dashboard members</dt><dd>${view.membersCount}</dd>
</dl>
${ifOperatorMay(operator, 'merchants.write', actions(request, merchant))}
${keysSection(operator, merchant)}
${view.commissions === null ? '' : commissionsSection(operator, merchant.id, view.commissions)}
${gatewaysSection(operator, merchant.id, view.gateways)}`;
}

function actions(request: FastifyRequest, merchant: MerchantWithKeys): SafeHtml {
  const post = (path: string, label: string) =>
    html`<form method="post" action="/ops/merchants/${merchant.id}/${path}" class="inline">${csrfField(request)}<button type="submit">${label}</button></form>`;
  const review =
    merchant.reviewStatus === 'approved'
      ? ''
      : html`<div>${post('approve', merchant.reviewStatus === 'rejected' ? 'Approve after all' : 'Approve the sign-up')}${
          merchant.reviewStatus === 'pending_review' ? html` <a class="button secondary" href="/ops/merchants/${merchant.id}/reject">Reject…</a>` : ''
        }</div>`;
  const status =
    merchant.status === 'active'
      ? html`<a class="button secondary" href="/ops/merchants/${merchant.id}/disable">Disable…</a>`
      : post('enable', 'Enable the merchant');
  return html`<section aria-labelledby="actions-heading">
<h2 id="actions-heading">Actions</h2>
${review}
<div>${status}</div>
<form method="post" action="/ops/merchants/${merchant.id}/display-name" class="stack">
  ${csrfField(request)}
  <label for="display-name">Display name (what the checkout shows; blank: the name)</label>
  <input id="display-name" name="displayName" maxlength="${DISPLAY_NAME_CHARS_MAX}" value="${merchant.displayName ?? ''}">
  <button type="submit">Save the display name</button>
</form>
</section>`;
}

function keysSection(operator: OperatorViewer, merchant: MerchantWithKeys): SafeHtml {
  const row = (key: MerchantWithKeys['keys'][number]) => html`<tr>
  <th scope="row">${key.environment}</th><td><code>${key.keyPrefix}</code></td>
  <td><time datetime="${key.rotatedAt.toISOString()}">${utcMinute(key.rotatedAt)}</time></td>
  <td>${ifOperatorMay(operator, 'merchants.write', html`<a href="/ops/merchants/${merchant.id}/keys/${key.environment}/rotate">Rotate…</a>`)}</td>
</tr>`;
  return html`<section aria-labelledby="keys-heading">
<h2 id="keys-heading">Keys</h2>
<table><caption>Only the first characters of each key: the keys themselves are shown once, when issued</caption>
<thead><tr><th scope="col">Environment</th><th scope="col">Prefix</th><th scope="col">Issued or rotated</th><th scope="col"></th></tr></thead>
<tbody>${merchant.keys.map(row)}</tbody></table>
</section>`;
}

function commissionsSection(operator: OperatorViewer, merchantId: number, commissions: PresentedCommissions): SafeHtml {
  const row = ([operation, terms]: [string, PresentedCommissions[keyof PresentedCommissions]]) =>
    html`<tr><th scope="row">${operation}</th><td class="num">${terms === null ? 'none' : `${terms.percent} %`}</td><td class="num">${terms === null ? '' : terms.fixed}</td></tr>`;
  return html`<section aria-labelledby="commissions-heading">
<h2 id="commissions-heading">Commissions</h2>
<table><caption>Terms per operation; payments copy them when they are created</caption>
<thead><tr><th scope="col">Operation</th><th scope="col" class="num">Percent</th><th scope="col" class="num">Fixed (minor units)</th></tr></thead>
<tbody>${Object.entries(commissions).map(row)}</tbody></table>
${ifOperatorMay(operator, 'commissions.write', html`<p><a href="/ops/merchants/${merchantId}/commissions">Edit the commissions</a></p>`)}
</section>`;
}

function gatewaysSection(operator: OperatorViewer, merchantId: number, gateways: GatewayRow[]): SafeHtml {
  const row = (gateway: GatewayRow) => html`<tr>
  <th scope="row"><a href="/ops/gateways/${gateway.id}">${gateway.alias}</a></th><td>${gateway.environment}</td><td>${statusBadge(gateway.status)}</td>
  <td><time datetime="${gateway.createdAt.toISOString()}">${utcMinute(gateway.createdAt)}</time></td>
</tr>`;
  const list =
    gateways.length === 0
      ? html`<p class="empty">No gateway: production payments need one.</p>`
      : html`<table><caption>Gateways of both environments</caption>
<thead><tr><th scope="col">Alias</th><th scope="col">Environment</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead>
<tbody>${gateways.map(row)}</tbody></table>`;
  return html`<section aria-labelledby="gateways-heading">
<h2 id="gateways-heading">Gateways</h2>
${list}
${ifOperatorMay(operator, 'gateways.write', html`<p><a href="/ops/merchants/${merchantId}/gateways/new">Add a gateway</a></p>`)}
</section>`;
}
