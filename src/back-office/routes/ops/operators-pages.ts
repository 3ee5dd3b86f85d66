import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, raw, type SafeHtml } from '../../../platform/lib/html.ts';
import { changeOperator, createOperator, listOperatorAccounts, type NewOperatorCredentials } from '../../flows/operators.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { doneNotice, pathIdOf } from './page-values.ts';
import { operatorsView } from './operators-views.ts';

const DONE_TEXTS = { changed: 'Operator changed; their sessions have ended.', unchanged: 'Nothing to change.' };

// Operator accounts (role operators: admins only): the list, a new operator (password and TOTP secret shown on the
// answer to the form and never again), role changes, disabling and enabling. The last active admin stays one.
export async function operatorsPages(app: FastifyInstance): Promise<void> {
  const deps = app.opsDeps;

  const show = async (request: FastifyRequest, reply: FastifyReply, top: SafeHtml | '', status = 200) => {
    const operator = requireOperatorAction(request, 'operators');
    const operators = await listOperatorAccounts(deps);
    return opsPage(request, reply, { title: 'Operators', area: 'operators', status, body: operatorsView(request, operator, operators, top) });
  };

  app.get<{ Querystring: { done?: string } }>('/operators', async (request, reply) => show(request, reply, doneNotice(DONE_TEXTS, request.query.done)));

  app.post('/operators', async (request, reply) => {
    requireOperatorAction(request, 'operators');
    try {
      setAuditAction('operator.create');
      const created = await createOperator(deps, { email: formText(request.body, 'email'), role: formText(request.body, 'role') });
      reply.header('cache-control', 'no-store'); // the password and the secret are on this answer alone
      return show(request, reply, credentialsNotice(created));
    } catch (error) {
      if (error instanceof ApiError) return show(request, reply, problemOf(error), 400);
      throw error;
    }
  });

  app.post<{ Params: { id: string } }>('/operators/:id', async (request, reply) => {
    requireOperatorAction(request, 'operators');
    const id = pathIdOf(request.params.id);
    const role = formText(request.body, 'role');
    const status = formText(request.body, 'status');
    if (role === '' && status === '') return reply.redirect('/ops/operators?done=unchanged', 303);
    try {
      setAuditAction('operator.update');
      await changeOperator(deps, id, { ...(role === '' ? {} : { role }), ...(status === '' ? {} : { status }) });
    } catch (error) {
      if (error instanceof ApiError && error.statusCode !== 404) return show(request, reply, problemOf(error), 400);
      throw error;
    }
    return reply.redirect('/ops/operators?done=changed', 303);
  });
}

// The QR code is an SVG drawn by our own code (flows/second-factor.ts), as on the dashboard's enrolment page.
function credentialsNotice(created: NewOperatorCredentials): SafeHtml {
  const { operator } = created;
  return html`<div class="ok" role="status"><p>Operator ${operator.email} (${operator.role}) created. Hand these over now, by a safe channel: they are shown this once.</p>
<dl class="facts"><dt>E-mail</dt><dd>${operator.email}</dd><dt>Password</dt><dd><code class="secret" id="new-operator-password">${created.password}</code></dd>
<dt>Authenticator key</dt><dd><code class="secret" id="new-operator-totp">${created.totpSecret}</code></dd></dl>
<figure class="qr" aria-label="QR code of the new operator's authenticator key">${raw(created.totpQrSvg)}</figure></div>`;
}
