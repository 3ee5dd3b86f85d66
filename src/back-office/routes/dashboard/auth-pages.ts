import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { confirmSignUp, startSignUp } from '../../flows/signup.ts';
import { confirmSecondFactor, startSignIn } from '../../flows/sign-in.ts';
import { formText } from '../../pages/machinery.ts';
import { publicPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';
import { setSessionCookie } from './session-cookie.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { resetPages } from './reset-pages.ts';

const PENDING_COOKIE = '__Host-payrail_signin'; // the half session between password and second factor
const PENDING_MAX_AGE_S = 10 * 60;

function clientOf(request: FastifyRequest) {
  return { ipAddress: request.ip, userAgent: String(request.headers['user-agent'] ?? '') };
}

// Where to go after sign-in: a dashboard path of this site, never elsewhere.
function nextPath(value: string): string {
  return /^\/dashboard(\/[A-Za-z0-9/_-]*)?(\?[A-Za-z0-9=&%._-]*)?$/.test(value) && !value.startsWith('/dashboard/login') ? value : '/dashboard';
}

// Sign-up, e-mail confirmation, sign-in with its second factor: the pages of someone not signed in.
export async function authPages(app: FastifyInstance): Promise<void> {
  const deps = app.dashboardDeps;

  app.get<{ Querystring: { next?: string } }>('/login', async (request, reply) => {
    if (request.viewer) return reply.redirect('/dashboard', 303);
    return loginForm(request, reply, { email: '', next: nextPath(request.query.next ?? '') });
  });

  app.post('/login', async (request, reply) => {
    const email = formText(request.body, 'email');
    const next = nextPath(formText(request.body, 'next'));
    try {
      const started = await startSignIn(deps, { email, password: formText(request.body, 'password') }, clientOf(request));
      reply.setCookie(PENDING_COOKIE, started.sessionToken, { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: PENDING_MAX_AGE_S });
      return reply.redirect(`/dashboard/login/code?method=${started.method}&next=${encodeURIComponent(next)}`, 303);
    } catch (error) {
      return loginForm(request, reply, { email, next, problem: problemOf(error) });
    }
  });

  app.get<{ Querystring: { method?: string; next?: string } }>('/login/code', async (request, reply) =>
    codeForm(request, reply, { totp: request.query.method === 'totp', next: nextPath(request.query.next ?? '') }),
  );

  app.post('/login/code', async (request, reply) => {
    const totp = formText(request.body, 'method') === 'totp';
    const next = nextPath(formText(request.body, 'next'));
    const pending = request.cookies[PENDING_COOKIE];
    try {
      if (!pending) throw new ApiError('sign_in_expired', 401, 'this sign-in has expired: sign in again');
      await confirmSecondFactor(deps, pending, formText(request.body, 'code'), clientOf(request));
      reply.clearCookie(PENDING_COOKIE, { path: '/', secure: true, httpOnly: true, sameSite: 'strict' });
      setSessionCookie(reply, pending);
      return reply.redirect(next, 303);
    } catch (error) {
      return codeForm(request, reply, { totp, next, problem: problemOf(error) });
    }
  });

  await app.register(resetPages);

  app.get('/signup', async (request, reply) => signUpForm(request, reply, { businessName: '', email: '' }));

  app.post('/signup', async (request, reply) => {
    const form = { businessName: formText(request.body, 'businessName'), email: formText(request.body, 'email') };
    try {
      await startSignUp(deps, { ...form, password: formText(request.body, 'password') });
    } catch (error) {
      return signUpForm(request, reply, { ...form, problem: problemOf(error) });
    }
    return publicPage(reply, {
      title: 'Check your e-mail',
      body: html`<p role="status">If ${form.email} can sign up, a confirmation link is on its way. Open it to create your account and get your sandbox key.</p>`,
    });
  });

  app.get<{ Querystring: { token?: string } }>('/confirm', async (request, reply) =>
    publicPage(reply, {
      title: 'Confirm your e-mail address',
      body: html`<form method="post" action="/dashboard/confirm">${csrfField(request)}
<input type="hidden" name="token" value="${request.query.token ?? ''}">
<p>Confirm to create your merchant account. Its sandbox key is shown on the next page, once.</p>
<button type="submit">Confirm and create my account</button></form>`,
    }),
  );

  app.post('/confirm', async (request, reply) => {
    const confirmed = await confirmSignUp(deps, formText(request.body, 'token'));
    return publicPage(reply, {
      title: 'Your account is ready',
      body: html`<p role="status">Merchant #${confirmed.merchantId} is created, with ${confirmed.email} as its owner.</p>
<p>Your <strong>sandbox key</strong>, shown this once (Payrail keeps only its digest and a sealed copy; you can rotate it in Developers):</p>
<p><code class="secret" id="sandbox-key">${confirmed.sandboxKey}</code></p>
<p>Live payments need an operator's approval; then the production key is issued in Developers.</p>
<p><a class="button" href="/dashboard/login">Sign in</a></p>`,
    });
  });
}

function loginForm(request: FastifyRequest, reply: FastifyReply, form: { email: string; next: string; problem?: SafeHtml }): FastifyReply {
  return publicPage(reply, {
    title: 'Sign in',
    status: form.problem ? 400 : 200,
    body: html`${form.problem ?? ''}
<form method="post" action="/dashboard/login" class="stack">${csrfField(request)}
<input type="hidden" name="next" value="${form.next}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="username" required value="${form.email}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button></form>
<p><a href="/dashboard/reset">Forgot your password?</a> · <a href="/dashboard/signup">Create an account</a></p>`,
  });
}

function codeForm(request: FastifyRequest, reply: FastifyReply, form: { totp: boolean; next: string; problem?: SafeHtml }): FastifyReply {
  const hint = form.totp ? 'Enter the 6-digit code of your authenticator app.' : 'We sent a 6-digit code to your e-mail address. It expires in 10 minutes.';
  return publicPage(reply, {
    title: 'Second factor',
    status: form.problem ? 400 : 200,
    body: html`${form.problem ?? ''}<p id="code-hint">${hint}</p>
<form method="post" action="/dashboard/login/code" class="stack">${csrfField(request)}
<input type="hidden" name="method" value="${form.totp ? 'totp' : 'code'}"><input type="hidden" name="next" value="${form.next}">
<label for="code">Code</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" required aria-describedby="code-hint">
<button type="submit">Continue</button></form>`,
  });
}

function signUpForm(request: FastifyRequest, reply: FastifyReply, form: { businessName: string; email: string; problem?: SafeHtml }): FastifyReply {
  return publicPage(reply, {
    title: 'Create your Payrail account',
    status: form.problem ? 400 : 200,
    body: html`${form.problem ?? ''}
<form method="post" action="/dashboard/signup" class="stack">${csrfField(request)}
<label for="businessName">Business name</label><input id="businessName" name="businessName" required maxlength="100" value="${form.businessName}">
<label for="email">E-mail</label><input id="email" name="email" type="email" autocomplete="email" required value="${form.email}">
<label for="password">Password (at least 12 characters, not a common one)</label>
<input id="password" name="password" type="password" autocomplete="new-password" minlength="12" required>
<button type="submit">Sign up</button></form>
<p>Already have an account? <a href="/dashboard/login">Sign in</a></p>`,
  });
}
