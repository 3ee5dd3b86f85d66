import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type AppTokenRecord, createAppToken, listAllAppTokens, revokeAppTokenById } from '../../../core-banking/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { doneNotice, pathIdOf, timeText } from './page-values.ts';

const NAME_LENGTH_MAX = 100; // the admin API's bound (CreateAppTokenBody)
const CONTROL_CHARACTERS = /\p{Cc}/u;

// Tokens of internal services (header app-token): the list (prefixes only), a new one (its token shown on the answer
// to the form and never again), a revocation. The admin API's flows (src/core-banking/routes/admin/app-tokens/).
export async function appTokensPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  const show = async (request: FastifyRequest, reply: FastifyReply, top: SafeHtml | '', status = 200) => {
    const tokens = await listAllAppTokens(db);
    return opsPage(request, reply, { title: 'App tokens', area: 'app-tokens', status, body: tokensView(request, tokens, top) });
  };

  app.get<{ Querystring: { done?: string } }>('/app-tokens', async (request, reply) => {
    requireOperatorAction(request, 'app_tokens');
    return show(request, reply, doneNotice({ revoked: 'App token revoked: requests with it are refused from now on.' }, request.query.done));
  });

  app.post('/app-tokens', async (request, reply) => {
    requireOperatorAction(request, 'app_tokens');
    const name = formText(request.body, 'name').trim();
    try {
      if (name.length === 0 || name.length > NAME_LENGTH_MAX || CONTROL_CHARACTERS.test(name)) {
        throw new ApiError('invalid_field', 422, `the name is 1 to ${NAME_LENGTH_MAX} characters, without control characters`);
      }
      setAuditAction('app_token.create');
      const { record, token } = await createAppToken(db, name);
      reply.header('cache-control', 'no-store'); // the token is on this answer alone
      return show(request, reply, createdNotice(record, token));
    } catch (error) {
      if (error instanceof ApiError) return show(request, reply, problemOf(error), 400);
      throw error;
    }
  });

  app.post<{ Params: { id: string } }>('/app-tokens/:id/revoke', async (request, reply) => {
    requireOperatorAction(request, 'app_tokens');
    const id = pathIdOf(request.params.id);
    setAuditAction('app_token.revoke');
    await revokeAppTokenById(db, id);
    return reply.redirect('/ops/app-tokens?done=revoked', 303);
  });
}

function createdNotice(record: AppTokenRecord, token: string): SafeHtml {
  return html`<div class="ok" role="status"><p>App token “${record.name}” created. Copy it now: it is shown this once, and only its digest is kept.</p>
<p><code class="secret" id="new-app-token">${token}</code></p>
<p>The service sends it as the header <code>app-token</code>.</p></div>`;
}

function tokensView(request: FastifyRequest, tokens: AppTokenRecord[], top: SafeHtml | ''): SafeHtml {
  return html`${top}
<section aria-labelledby="new-token-h"><h2 id="new-token-h">New app token</h2>
<form method="post" action="/ops/app-tokens" class="stack">${csrfField(request)}
<label for="token-name">The service that will use it</label><input id="token-name" name="name" required maxlength="${NAME_LENGTH_MAX}">
<button type="submit">Create</button></form></section>
<section aria-labelledby="tokens-h"><h2 id="tokens-h">Tokens</h2>
${
  tokens.length === 0
    ? html`<p class="empty" role="status">No app tokens yet.</p>`
    : html`<div class="table-wrap"><table><caption>App tokens, newest first (prefixes only)</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Prefix</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Revoked</th><th scope="col">Revoke</th></tr></thead>
<tbody>${tokens.map(
        (token) => html`<tr><th scope="row">${token.name}</th><td><code>${token.tokenPrefix}…</code></td><td>${timeText(token.createdAt)}</td>
<td>${timeText(token.lastUsedAt)}</td><td>${timeText(token.revokedAt)}</td>
<td>${
          token.revokedAt === null
            ? html`<form method="post" action="/ops/app-tokens/${token.id}/revoke" class="inline">${csrfField(request)}<button type="submit" class="danger" data-confirm="Revoke the app token ${token.name}? Requests with it are refused at once.">Revoke</button></form>`
            : '—'
        }</td></tr>`,
      )}</tbody></table></div>`
}</section>`;
}
