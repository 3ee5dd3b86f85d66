import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  actOnDispute,
  findOperatorDisputes,
  getDisputeDetail,
  readDisputeDocument,
  type DisputeListResult,
  type DisputeStatus,
} from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { sendDocument } from '../../../platform/lib/document-download.ts';
import { DocumentStore } from '../../../platform/lib/document-store.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { DISPUTE_DONE_TEXTS, disputeView, QUEUE_FILTERS, queueView, type QueueFilter, type QueueParams } from './disputes-views.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';

type TokenRequest = FastifyRequest<{ Params: { token: string } }>;

const PER_PAGE = 50;
const WAITING: readonly DisputeStatus[] = ['open', 'under_review'];

// Every merchant's disputes: the queue (those waiting for a decision first: the default filter), one dispute with its
// history and evidence, and the operator's moves with the admin API's flow (POST /api/admin/v1/disputes/:token/review
// and /resolve): the same rules, the merchant notified, the ledger posted.
export async function disputesPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;
  const currencies = app.payrail.currencies;
  const documents = new DocumentStore(app.payrail.config.disputeDocumentsDir);

  app.get('/disputes', async (request, reply) => {
    requireOperatorAction(request, 'disputes');
    const params = queueParamsOf(request.query);
    let found: DisputeListResult | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findOperatorDisputes(db, { ...queueFiltersOf(params), cursor: params.cursor === '' ? null : params.cursor, perPage: PER_PAGE });
    } catch (error) {
      problem = problemOf(error); // a merchant id or cursor the flow cannot read
    }
    return opsPage(request, reply, {
      title: 'Disputes',
      area: 'disputes',
      status: found === null ? 422 : 200,
      body: queueView(currencies, params, found, problem),
    });
  });

  const showDispute = async (request: TokenRequest, reply: FastifyReply, notice: SafeHtml | '', status = 200) => {
    requireOperatorAction(request, 'disputes');
    const detail = await getDisputeDetail(db, { anyMerchant: true }, request.params.token);
    const body = disputeView(request, currencies, detail, notice, status === 200 ? '' : formText(request.body, 'note'));
    return opsPage(request, reply, { title: `Dispute ${detail.dispute.token.slice(0, 8)}…`, area: 'disputes', status, body });
  };

  app.get<{ Params: { token: string } }>('/disputes/:token', async (request, reply) => {
    const done = formText(request.query, 'done');
    const notice = Object.hasOwn(DISPUTE_DONE_TEXTS, done)
      ? html`<p class="ok" role="status">${DISPUTE_DONE_TEXTS[done as keyof typeof DISPUTE_DONE_TEXTS]}</p>`
      : '';
    return showDispute(request, reply, notice);
  });

  app.get<{ Params: { token: string; id: string } }>('/disputes/:token/documents/:id', async (request, reply) => {
    requireOperatorAction(request, 'disputes');
    const id = /^[1-9][0-9]{0,15}$/.test(request.params.id) ? Number(request.params.id) : Number.NaN;
    if (!Number.isSafeInteger(id)) throw new ApiError('not_found', 404, 'document not found');
    return sendDocument(reply, await readDisputeDocument({ db, documents }, { operator: true }, request.params.token, id));
  });

  // A move the dispute's status no longer admits (it moved meanwhile), or a note the flow refuses, on the page.
  const move = async (request: TokenRequest, reply: FastifyReply, act: () => Promise<unknown>, done: keyof typeof DISPUTE_DONE_TEXTS) => {
    try {
      await act();
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode === 404) throw error;
      return showDispute(request, reply, problemOf(error), error.statusCode);
    }
    return reply.redirect(`/ops/disputes/${request.params.token}?done=${done}`, 303);
  };

  app.post<{ Params: { token: string } }>('/disputes/:token/review', async (request, reply) => {
    requireOperatorAction(request, 'disputes');
    setAuditAction('dispute.review');
    return move(request, reply, () => actOnDispute(db, request.params.token, { kind: 'review' }, null), 'reviewed');
  });

  app.post<{ Params: { token: string } }>('/disputes/:token/resolve', async (request, reply) => {
    requireOperatorAction(request, 'disputes');
    const outcome = formText(request.body, 'outcome');
    if (outcome !== 'won' && outcome !== 'lost') {
      return showDispute(request, reply, problemOf(new ApiError('invalid_field', 400, 'choose the outcome: won or lost')), 400);
    }
    const note = formText(request.body, 'note');
    setAuditAction('dispute.resolve');
    return move(request, reply, () => actOnDispute(db, request.params.token, { kind: 'resolve', outcome }, note.trim() === '' ? null : note), outcome);
  });
}

function queueParamsOf(query: unknown): QueueParams {
  const filterText = formText(query, 'status');
  return {
    filter: QUEUE_FILTERS.find((filter) => filter === filterText) ?? 'waiting',
    merchantId: formText(query, 'merchantId').trim(),
    environment: formText(query, 'environment'),
    cursor: formText(query, 'cursor'),
  };
}

// The filters as the flow takes them; a merchant id that is not a whole number is a 422, as the admin API's schema answers it.
function queueFiltersOf(params: QueueParams): {
  status: DisputeStatus | readonly DisputeStatus[] | null;
  merchantId: number | null;
  environment: 'sandbox' | 'production' | null;
} {
  const merchantId = params.merchantId === '' ? null : /^[1-9][0-9]{0,15}$/.test(params.merchantId) ? Number(params.merchantId) : Number.NaN;
  if (merchantId !== null && !Number.isSafeInteger(merchantId)) {
    throw new ApiError('invalid_field', 422, 'the filters cannot match any dispute', [
      { code: 'invalid_field', field: 'merchantId', message: 'a merchant id is a whole number' },
    ]);
  }
  const environment = params.environment === 'sandbox' || params.environment === 'production' ? params.environment : null;
  return { status: statusesOf(params.filter), merchantId, environment };
}

function statusesOf(filter: QueueFilter): DisputeStatus | readonly DisputeStatus[] | null {
  if (filter === 'waiting') return WAITING;
  return filter === 'all' ? null : filter;
}
