import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, raw, type SafeHtml } from '../../../platform/lib/html.ts';
import { confirmTotpEnrollment, pendingTotpEnrollment, startTotpEnrollment } from '../../flows/account.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { viewerOf } from './guard.ts';
import { formText } from '../../pages/machinery.ts';
import { memberPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';

// Enrolling an authenticator app: a QR code drawn here (the secret goes to no third party), then its first code.
export async function secondFactorPages(app: FastifyInstance): Promise<void> {
  const deps = app.dashboardDeps;

  const enrollPage = async (request: FastifyRequest, reply: FastifyReply, problem?: SafeHtml) => {
    const viewer = viewerOf(request);
    const enrollment = (problem ? await pendingTotpEnrollment(deps, viewer) : null) ?? (await startTotpEnrollment(deps, viewer));
    return memberPage(request, reply, {
      title: 'Set up an authenticator app',
      area: 'settings',
      status: problem ? 400 : 200,
      body: html`${problem ?? ''}<p>Scan this code with your authenticator app, or type the key in by hand.</p>
<figure class="qr" aria-label="QR code of your authenticator key">${raw(enrollment.qrSvg)}</figure>
<p>Key: <code class="secret" id="totp-key">${enrollment.secret}</code></p>
<form method="post" action="/dashboard/settings/totp" class="stack">${csrfField(request)}
<label for="code">The 6-digit code your app shows</label><input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" required>
<button type="submit">Turn on</button></form>`,
    });
  };

  app.get('/settings/totp', async (request, reply) => enrollPage(request, reply));

  app.post('/settings/totp', async (request, reply) => {
    const viewer = viewerOf(request);
    try {
      await confirmTotpEnrollment(deps, viewer, formText(request.body, 'code'));
    } catch (error) {
      if (error instanceof ApiError && error.statusCode === 422) return enrollPage(request, reply, problemOf(error));
      throw error;
    }
    return memberPage(request, reply, {
      title: 'Authenticator app on',
      area: 'settings',
      body: html`<p class="ok" role="status">From your next sign-in, the code comes from your app.</p><p><a href="/dashboard/settings">Back to Settings</a></p>`,
    });
  });
}
