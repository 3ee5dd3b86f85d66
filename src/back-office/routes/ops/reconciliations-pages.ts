import type { FastifyInstance } from 'fastify';
import {
  findReconciliationItems,
  findReconciliations,
  getReconciliation,
  reconciliationReportLines,
  type ReconciliationOutcome,
} from '../../../payments/index.ts';
import { sendCsvDownload } from '../../../platform/lib/csv-download.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { recordAuditEvent } from '../../flows/audit-log.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { OUTCOME_LABELS, reconciliationsView, reconciliationView } from './reconciliations-views.ts';

const PER_PAGE = 50;
const TOKEN_PATTERN = /^rec_[A-Za-z0-9_-]{1,64}$/;
const CURSOR_PATTERN = /^[1-9][0-9]{0,15}$/;

function outcomeOf(query: unknown): ReconciliationOutcome | null {
  const text = formText(query, 'outcome');
  return Object.hasOwn(OUTCOME_LABELS, text) ? (text as ReconciliationOutcome) : null;
}

function cursorOf(query: unknown): string | undefined {
  const text = formText(query, 'cursor');
  return CURSOR_PATTERN.test(text) ? text : undefined;
}

function tokenOf(text: string): string {
  if (!TOKEN_PATTERN.test(text)) throw new ApiError('not_found', 404, 'no reconciliation has this token');
  return text;
}

// Settlement-file reconciliation in the console (finance and admin): the admin API's flows, the import form posting to
// reconciliations-upload.ts, the report as CSV.
export async function reconciliationsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  app.get('/reconciliations', async (request, reply) => {
    requireOperatorAction(request, 'reconciliation');
    const found = await findReconciliations(db, { cursor: cursorOf(request.query), limit: PER_PAGE });
    const imported = formText(request.query, 'imported');
    const notice = TOKEN_PATTERN.test(imported)
      ? html`<p class="ok" role="status">The file is reconciled: <a href="/ops/reconciliations/${imported}">${imported}</a>.</p>`
      : '';
    return opsPage(request, reply, {
      title: 'Reconciliation',
      area: 'reconciliations',
      body: reconciliationsView(request, found.reconciliations, found.nextCursor, notice),
    });
  });

  app.get<{ Params: { token: string } }>('/reconciliations/:token', async (request, reply) => {
    requireOperatorAction(request, 'reconciliation');
    const token = tokenOf(request.params.token);
    const reconciliation = await getReconciliation(db, token);
    const outcome = outcomeOf(request.query);
    const shown =
      reconciliation.status === 'completed'
        ? { outcome, ...(await findReconciliationItems(db, token, { outcome: outcome ?? undefined, cursor: cursorOf(request.query), limit: PER_PAGE })) }
        : null;
    return opsPage(request, reply, { title: `Reconciliation ${token}`, area: 'reconciliations', body: reconciliationView(reconciliation, shown) });
  });

  app.get<{ Params: { token: string } }>('/reconciliations/:token/report.csv', async (request, reply) => {
    requireOperatorAction(request, 'reconciliation');
    const token = tokenOf(request.params.token);
    const lines = await reconciliationReportLines(db, token, outcomeOf(request.query));
    await recordAuditEvent(db, { action: 'reconciliation.export', subjectType: 'reconciliation', subjectId: token });
    return sendCsvDownload(reply, `payrail-reconciliation-${token}.csv`, lines);
  });
}
