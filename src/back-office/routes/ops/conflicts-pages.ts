import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { listConflicts, resolveConflict } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { CONFLICT_DONE_TEXTS, conflictsView, type ConflictsParams } from './conflicts-views.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';

const PER_PAGE = 50;
const PAGE_MAX = 1_000_000; // the admin API's bound

// The queue of payment conflicts (GET /api/admin/v1/conflicts) and the decision on each (POST …/conflicts/:id/resolve),
// with the admin API's flows; resolved_by names the operator (the audit log names them as operator:<id>).
export async function conflictsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  const show = async (request: FastifyRequest, reply: FastifyReply, notice: SafeHtml | '', status = 200) => {
    requireOperatorAction(request, 'conflicts');
    const params = paramsOf(request.query);
    const found = await listConflicts(db, { unresolvedOnly: params.state === 'unresolved', page: params.page, perPage: PER_PAGE });
    return opsPage(request, reply, {
      title: 'Conflicts',
      area: 'conflicts',
      status,
      body: conflictsView(request, params, { ...found, perPage: PER_PAGE }, notice),
    });
  };

  app.get('/conflicts', async (request, reply) => {
    const done = formText(request.query, 'done');
    const notice = Object.hasOwn(CONFLICT_DONE_TEXTS, done)
      ? html`<p class="ok" role="status">${CONFLICT_DONE_TEXTS[done as keyof typeof CONFLICT_DONE_TEXTS]}</p>`
      : '';
    return show(request, reply, notice);
  });

  // A conflict decided meanwhile, or one whose payment moved where the report cannot apply, on the page.
  app.post<{ Params: { id: string } }>('/conflicts/:id/resolve', async (request, reply) => {
    const operator = requireOperatorAction(request, 'conflicts');
    const id = /^[1-9][0-9]{0,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
    if (!Number.isSafeInteger(id)) throw new ApiError('not_found', 404, 'conflict not found');
    const action = formText(request.body, 'action');
    if (action !== 'accept' && action !== 'dismiss') return show(request, reply, problemOf(new ApiError('invalid_field', 400, 'accept or dismiss')), 400);
    setAuditAction('conflict.resolve');
    try {
      await resolveConflict(db, id, action, operator.email);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 404) throw error;
      return show(request, reply, problemOf(error), error.statusCode);
    }
    return reply.redirect(`/ops/conflicts?done=${action === 'accept' ? 'accepted' : 'dismissed'}`, 303);
  });
}

function paramsOf(query: unknown): ConflictsParams {
  const pageText = formText(query, 'page');
  const page = /^[1-9][0-9]{0,6}$/.test(pageText) ? Math.min(Number(pageText), PAGE_MAX) : 1;
  return { state: formText(query, 'state') === 'all' ? 'all' : 'unresolved', page };
}
