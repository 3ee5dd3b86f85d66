import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { confirmOperatorCode, signOutOperator, startOperatorSignIn } from '../../flows/operator-sign-in.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { operatorOf } from './guard.ts';
import { opsPublicPage } from './layout.ts';
import { clearOpsCookie, OPS_PENDING_COOKIE, OPS_SESSION_COOKIE, setOpsCookie } from './session-cookie.ts';

function clientOf(request: FastifyRequest) {
  return { ipAddress: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}

// Where to go after sign-in: a console path of this site, never elsewhere.
function nextPath(value: string): string {
  return /^\/ops(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&%._:-]*)?$/.test(value) && !value.startsWith('/ops/login') ? value : '/ops';
}

// Sign-in (password, then the TOTP code: both, always) and sign-out.
export async function opsAuthPages(app: FastifyInstance): Promise<void> {
  const deps = app.opsDeps;
  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    if (request.operator) return reply.redirect('/ops', 303);
    return loginForm(request, reply, { email: '', next: nextPath(request.query.next ?? '') });
  });
  app.post('/login', async (request, reply) => {
    const email = formText(request.body, 'email');
    const next = nextPath(formText(request.body, 'next'));
    try {
      const pending = await startOperatorSignIn(deps, { email, password: formText(request.body, 'password') }, clientOf(request));
      setOpsCookie(reply, OPS_PENDING_COOKIE, pending);
      return reply.redirect(`/ops/login/code?next=${encodeURIComponent(next)}`, 303);
    } catch (error) {
      return loginForm(request, reply, { email, next, problem: problemOf(error) });
    }
  });
  app.get<{ Querystring: { next?: string } }>('/login/code', async (request, reply) => codeForm(request, reply, { next: nextPath(request.query.next ?? '') }));
  app.post('/login/code', async (request, reply) => {
    const next = nextPath(formText(request.body, 'next'));
    const pending = request.cookies[OPS_PENDING_COOKIE];
    try {
      if (!pending) throw new ApiError('sign_in_expired', 401, 'this sign-in has expired: sign in again');
      await confirmOperatorCode(deps, pending, formText(request.body, 'code'), clientOf(request));
      clearOpsCookie(reply, OPS_PENDING_COOKIE);
      setOpsCookie(reply, OPS_SESSION_COOKIE, pending);
      return reply.redirect(next, 303);
    } catch (error) {
      return codeForm(request, reply, { next, problem: problemOf(error) });
    }
  });
  app.post('/logout', async (request, reply) => {
    if (request.operator) await signOutOperator(deps, operatorOf(request));
    clearOpsCookie(reply, OPS_SESSION_COOKIE);
    return reply.redirect('/ops/login', 303);
  });
}

function loginForm(request: FastifyRequest, reply: FastifyReply, form: { email: string; next: string; problem?: SafeHtml }): FastifyReply {
  return opsPublicPage(reply, {
    title: 'Operator sign-in',
    status: form.problem ? 400 : 200,
    body: html`${form.problem ?? ''}
<form method="post" action="/ops/login" class="stack">${csrfField(request)}
<input type="hidden" name="next" value="${form.next}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${form.email}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<p>Operator accounts are made with <code>payrail operator create</code> or by an admin in the console.</p>`,
  });
}

function codeForm(request: FastifyRequest, reply: FastifyReply, form: { next: string; problem?: SafeHtml }): FastifyReply {
  return opsPublicPage(reply, {
    title: 'Authenticator code',
    status: form.problem ? 400 : 200,
    body: html`${form.problem ?? ''}<p id="code-hint">Enter the 6-digit code of your authenticator app.</p>
<form method="post" action="/ops/login/code" class="stack">${csrfField(request)}
<input type="hidden" name="next" value="${form.next}">
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required aria-describedby="code-hint">
<button type="submit">Continue</button></form>`,
  });
}
