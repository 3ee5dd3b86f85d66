import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { completePasswordReset, requestPasswordReset } from '../../flows/account.ts';
import { acceptInvite, inviteOf } from '../../flows/team.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { publicPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';

// The pages of e-mailed links: password reset (request, then the new password) and a team invitation.
export async function resetPages(app: FastifyInstance): Promise<void> {
  const deps = app.dashboardDeps;

  app.get('/reset', async (request, reply) => requestForm(request, reply, ''));
  app.post('/reset', async (request, reply) => {
    const email = formText(request.body, 'email');
    try {
      await requestPasswordReset(deps, email);
    } catch (error) {
      return requestForm(request, reply, email, problemOf(error));
    }
    return publicPage(reply, {
      title: 'Check your e-mail',
      body: html`<p role="status">If ${email} has an account, a link to choose a new password is on its way. It works once, for 30 minutes.</p>`,
    });
  });

  app.get<{ Querystring: { token?: string } }>('/reset/complete', async (request, reply) => newPasswordForm(request, reply, request.query.token ?? ''));
  app.post('/reset/complete', async (request, reply) => {
    const token = formText(request.body, 'token');
    try {
      await completePasswordReset(deps, token, formText(request.body, 'password'));
    } catch (error) {
      return newPasswordForm(request, reply, token, problemOf(error));
    }
    return publicPage(reply, {
      title: 'Password changed',
      body: html`<p role="status">Your password is changed and every session of yours has ended.</p><p><a class="button" href="/dashboard/login">Sign in</a></p>`,
    });
  });

  app.get<{ Querystring: { token?: string } }>('/invite', async (request, reply) => {
    const token = request.query.token ?? '';
    const invite = await inviteOf(deps, token);
    return inviteForm(request, reply, token, `${invite.email}, invited as ${invite.role ?? 'viewer'}`);
  });
  app.post('/invite', async (request, reply) => {
    const token = formText(request.body, 'token');
    try {
      await acceptInvite(deps, token, formText(request.body, 'password'));
    } catch (error) {
      return inviteForm(request, reply, token, '', problemOf(error));
    }
    return publicPage(reply, {
      title: 'Welcome to the team',
      body: html`<p role="status">Your account is ready.</p><p><a class="button" href="/dashboard/login">Sign in</a></p>`,
    });
  });
}

function requestForm(request: FastifyRequest, reply: FastifyReply, email: string, problem?: SafeHtml): FastifyReply {
  return publicPage(reply, {
    title: 'Reset your password',
    status: problem ? 400 : 200,
    body: html`${problem ?? ''}<form method="post" action="/dashboard/reset" class="stack">${csrfField(request)}
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${email}">
<button type="submit">Send me a link</button></form>`,
  });
}

function newPasswordForm(request: FastifyRequest, reply: FastifyReply, token: string, problem?: SafeHtml): FastifyReply {
  return publicPage(reply, {
    title: 'Choose a new password',
    status: problem ? 400 : 200,
    body: html`${problem ?? ''}<form method="post" action="/dashboard/reset/complete" class="stack">${csrfField(request)}
<input type="hidden" name="token" value="${token}">
<label for="password">New password (at least 12 characters, not a common one)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required>
<button type="submit">Change my password</button></form>`,
  });
}

function inviteForm(request: FastifyRequest, reply: FastifyReply, token: string, who: string, problem?: SafeHtml): FastifyReply {
  return publicPage(reply, {
    title: 'Join the team',
    status: problem ? 400 : 200,
    body: html`${problem ?? ''}${who ? html`<p>${who}</p>` : ''}<form method="post" action="/dashboard/invite" class="stack">${csrfField(request)}
<input type="hidden" name="token" value="${token}">
<label for="password">Choose a password (at least 12 characters, not a common one)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required>
<button type="submit">Create my account</button></form>`,
  });
}
