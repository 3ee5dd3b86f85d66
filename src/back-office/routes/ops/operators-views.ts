import type { FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { OPERATOR_ROLE_NAMES } from '../../domain/operator-roles.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import type { OperatorSummary } from '../../flows/operators.ts';
import { csrfField } from '../../pages/document.ts';
import { timeText } from './page-values.ts';

const roleOptions = (selected: string) =>
  OPERATOR_ROLE_NAMES.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${role}</option>`);

export function operatorsView(request: FastifyRequest, viewer: OperatorViewer, operators: OperatorSummary[], top: SafeHtml | ''): SafeHtml {
  return html`${top}
<section aria-labelledby="new-operator-h"><h2 id="new-operator-h">New operator</h2>
<p class="help">Payrail makes the password and the authenticator key; they are shown once, on the next page.</p>
<form method="post" action="/ops/operators" class="stack">${csrfField(request)}
<label for="operator-email">E-mail</label><input id="operator-email" name="email" type="email" required maxlength="254" autocomplete="off">
<label for="operator-role">Role</label><select id="operator-role" name="role">${roleOptions('support')}</select>
<button type="submit">Create</button></form></section>
<section aria-labelledby="operators-h"><h2 id="operators-h">Operators</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Created</th><th scope="col">Change</th></tr></thead>
<tbody>${operators.map((operator) => operatorRow(request, viewer, operator))}</tbody></table></div>
<p class="help">A change of role or status ends the operator's sessions. The last active admin cannot lose the role or be disabled.</p></section>`;
}

function operatorRow(request: FastifyRequest, viewer: OperatorViewer, operator: OperatorSummary): SafeHtml {
  const you = operator.id === viewer.operatorId ? ' (you)' : '';
  const toggle = operator.status === 'active' ? { status: 'disabled', label: 'Disable' } : { status: 'active', label: 'Enable' };
  return html`<tr><th scope="row">${operator.email}${you}</th><td>${operator.role}</td><td><span class="status status-${operator.status}">${operator.status}</span></td>
<td>${timeText(operator.createdAt)}</td>
<td><form method="post" action="/ops/operators/${operator.id}" class="inline">${csrfField(request)}
<label for="role-${operator.id}">Role of ${operator.email}</label><select id="role-${operator.id}" name="role">${roleOptions(operator.role)}</select>
<button type="submit" class="secondary">Change role</button></form>
<form method="post" action="/ops/operators/${operator.id}" class="inline">${csrfField(request)}<input type="hidden" name="status" value="${toggle.status}">
<button type="submit" class="${operator.status === 'active' ? 'danger' : 'secondary'}"${
    operator.status === 'active' ? html` data-confirm="Disable ${operator.email}? Their sessions end at once."` : ''
  }>${toggle.label}</button></form></td></tr>`;
}
