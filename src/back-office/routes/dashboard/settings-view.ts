import type { FastifyRequest } from 'fastify';
import { getMerchant } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { MEMBER_ROLE_NAMES, roleMay } from '../../domain/roles.ts';
import type { DashboardDeps } from '../../flows/dashboard-deps.ts';
import { listOwnSessions } from '../../flows/sessions.ts';
import { listTeam } from '../../flows/team.ts';
import { viewerOf } from './guard.ts';
import { ifAllowed } from './layout.ts';
import { csrfField } from '../../pages/document.ts';

// The Settings page's sections; each form appears only for a role that may send it.
export async function settingsView(deps: DashboardDeps, request: FastifyRequest, notice?: SafeHtml): Promise<SafeHtml> {
  const viewer = viewerOf(request);
  const [merchant, team, sessions] = await Promise.all([getMerchant(deps.db, viewer.merchantId), listTeam(deps, viewer), listOwnSessions(deps.db, viewer)]);
  const readOnly = (value: string | null) => html`<dd>${value ?? '—'}</dd>`;
  const roleOptions = (selected: string) =>
    MEMBER_ROLE_NAMES.map((role) => html`<option value="${role}"${role === selected ? html` selected` : ''}>${role}</option>`);
  const canTeam = roleMay(viewer.role, 'team');
  return html`${notice ?? ''}
<section aria-labelledby="business-h"><h2 id="business-h">Business</h2>
<dl class="facts"><dt>Name</dt><dd>${merchant.name}</dd><dt>Display name (on the checkout)</dt>${readOnly(merchant.displayName)}
<dt>Merchant id</dt><dd>${merchant.id}</dd><dt>Review</dt><dd>${merchant.reviewStatus === 'approved' ? 'approved' : 'waiting for an operator'}</dd></dl>
${ifAllowed(
  viewer,
  'business',
  html`<form method="post" action="/dashboard/settings/business" class="stack">${csrfField(request)}
<label for="displayName">Display name (empty: the name)</label><input id="displayName" name="displayName" maxlength="100" value="${merchant.displayName ?? ''}">
<button type="submit">Save display name</button></form>`,
)}</section>
<section aria-labelledby="defaults-h"><h2 id="defaults-h">Payment defaults</h2>
<p>Used by a payment created without its own callbackUrl or redirect URLs. The callback URL must be a public address, as on the API.</p>
${
  roleMay(viewer.role, 'developer_settings')
    ? html`<form method="post" action="/dashboard/settings/defaults" class="stack">${csrfField(request)}
<label for="defaultCallbackUrl">Default callbackUrl</label><input id="defaultCallbackUrl" name="defaultCallbackUrl" type="url" value="${merchant.defaultCallbackUrl ?? ''}">
<label for="defaultSuccessUrl">Default redirectSuccessUrl</label><input id="defaultSuccessUrl" name="defaultSuccessUrl" type="url" value="${merchant.defaultSuccessUrl ?? ''}">
<label for="defaultFailUrl">Default redirectFailUrl</label><input id="defaultFailUrl" name="defaultFailUrl" type="url" value="${merchant.defaultFailUrl ?? ''}">
<button type="submit">Save defaults</button></form>`
    : html`<dl class="facts"><dt>callbackUrl</dt>${readOnly(merchant.defaultCallbackUrl)}<dt>redirectSuccessUrl</dt>${readOnly(merchant.defaultSuccessUrl)}<dt>redirectFailUrl</dt>${readOnly(merchant.defaultFailUrl)}</dl>`
}</section>
<section aria-labelledby="team-h"><h2 id="team-h">Team</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">E-mail</th><th scope="col">Role</th>${canTeam ? html`<th scope="col">Change</th>` : ''}</tr></thead><tbody>
${team.members.map(
  (member) =>
    html`<tr><td>${member.email}${member.id === viewer.memberId ? ' (you)' : ''}</td><td>${member.role}</td>${
      canTeam
        ? html`<td><form method="post" action="/dashboard/settings/team/${member.id}/role" class="inline">${csrfField(request)}
<label for="role-${member.id}">Role of ${member.email}</label><select id="role-${member.id}" name="role">${roleOptions(member.role)}</select><button type="submit" class="secondary">Change role</button></form>
${member.id === viewer.memberId ? '' : html`<form method="post" action="/dashboard/settings/team/${member.id}/remove" class="inline">${csrfField(request)}<button type="submit" class="danger" data-confirm="Remove ${member.email} from the team?">Remove</button></form>`}</td>`
        : ''
    }</tr>`,
)}
</tbody></table></div>
${team.invites.length > 0 ? html`<p>Invitations waiting: ${team.invites.map((invite) => `${invite.email} (${invite.role ?? ''})`).join(', ')}</p>` : ''}
${
  canTeam
    ? html`<form method="post" action="/dashboard/settings/team/invite" class="inline">${csrfField(request)}
<label for="invite-email">E-mail</label><input id="invite-email" name="email" type="email" required>
<label for="invite-role">Role</label><select id="invite-role" name="role">${roleOptions('viewer')}</select>
<button type="submit">Invite</button></form>`
    : ''
}</section>
<section aria-labelledby="sessions-h"><h2 id="sessions-h">Your sessions</h2>
<div class="table-wrap"><table><thead><tr><th scope="col">Signed in</th><th scope="col">Last seen</th><th scope="col">Address</th><th scope="col">Browser</th><th scope="col">End</th></tr></thead><tbody>
${sessions.map(
  (
    session,
  ) => html`<tr><td>${session.createdAt.toISOString()}</td><td>${session.lastSeenAt.toISOString()}</td><td>${session.ipAddress}</td><td>${session.userAgent.slice(0, 80)}</td>
<td><form method="post" action="/dashboard/settings/sessions/${session.id}/revoke">${csrfField(request)}<button type="submit" class="secondary">${session.id === viewer.sessionId ? 'End this session' : 'Revoke'}</button></form></td></tr>`,
)}
</tbody></table></div></section>
<section aria-labelledby="factor-h"><h2 id="factor-h">Second factor</h2>
${
  viewer.hasTotp
    ? html`<p>An authenticator app (TOTP) is your second factor.</p>`
    : html`<p>Sign-in codes come by e-mail. An authenticator app is safer:</p><p><a class="button" href="/dashboard/settings/totp">Set up an authenticator app</a></p>`
}</section>`;
}
