import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  BANK_ACCOUNT_STATUSES,
  type BankAccountRow,
  type BankAccountStatus,
  listBankAccountsForReview,
  OPERATOR_BANK_ACCOUNT_PAGE_SIZE,
  reviewBankAccount,
} from '../../../core-banking/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { csrfField } from '../../pages/document.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { doneNotice, pathIdOf, timeText } from './page-values.ts';

const PAGE_MAX = 10_000; // the admin API's bound
const OUTER_ID_LENGTH_MAX = 255;
const DONE_TEXTS = { approve: 'Bank account approved.', decline: 'Bank account declined.' };

interface QueueQuery {
  status: BankAccountStatus | null; // null: every status
  page: number;
}

// The review queue of core banking bank accounts (pending first: the default filter) and its two decisions, with the
// admin API's flow (POST /api/admin/v1/bank-accounts/:id/approve|decline).
export async function bankAccountsPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;

  const show = async (request: FastifyRequest, reply: FastifyReply, query: QueueQuery, notice: SafeHtml | '', status = 200) => {
    const rows = await listBankAccountsForReview(db, { status: query.status, profileId: null, page: query.page });
    return opsPage(request, reply, { title: 'Bank accounts', area: 'bank-accounts', status, body: queueView(request, query, rows, notice) });
  };

  app.get<{ Querystring: Record<string, string | undefined> }>('/bank-accounts', async (request, reply) => {
    requireOperatorAction(request, 'bank_accounts');
    return show(request, reply, queueQueryOf(request.query), doneNotice(DONE_TEXTS, request.query['done']));
  });

  for (const action of ['approve', 'decline'] as const) {
    app.post<{ Params: { id: string } }>(`/bank-accounts/:id/${action}`, async (request, reply) => {
      requireOperatorAction(request, 'bank_accounts');
      const id = pathIdOf(request.params.id);
      const outerId = action === 'approve' ? formText(request.body, 'outer_id').trim() : '';
      try {
        if (outerId.length > OUTER_ID_LENGTH_MAX || /\p{Cc}/u.test(outerId)) {
          throw new ApiError('invalid_field', 422, `the provider's id is at most ${OUTER_ID_LENGTH_MAX} characters, without control characters`);
        }
        setAuditAction(`bank_account.${action}`);
        await reviewBankAccount(db, id, action, outerId === '' ? {} : { outerId });
      } catch (error) {
        if (error instanceof ApiError && error.statusCode !== 404) return show(request, reply, { status: 'pending', page: 1 }, problemOf(error), 400);
        throw error;
      }
      return reply.redirect(`/ops/bank-accounts?done=${action}`, 303);
    });
  }
}

function queueQueryOf(query: Record<string, string | undefined>): QueueQuery {
  const statusText = query['status'] ?? 'pending';
  const status = (BANK_ACCOUNT_STATUSES as readonly string[]).includes(statusText) ? (statusText as BankAccountStatus) : null;
  const page = /^[0-9]{1,5}$/.test(query['page'] ?? '') ? Math.min(Math.max(Number(query['page']), 1), PAGE_MAX) : 1;
  return { status, page };
}

function queueView(request: FastifyRequest, query: QueueQuery, rows: BankAccountRow[], notice: SafeHtml | ''): SafeHtml {
  const statusParam = query.status ?? 'any';
  const option = (value: string, label: string) => html`<option value="${value}"${value === statusParam ? html` selected` : ''}>${label}</option>`;
  const pageHref = (page: number) => `/ops/bank-accounts?status=${statusParam}&page=${page}`;
  const pages = [
    query.page > 1 ? html`<a href="${pageHref(query.page - 1)}">Previous page</a>` : '',
    rows.length === OPERATOR_BANK_ACCOUNT_PAGE_SIZE && query.page < PAGE_MAX ? html`<a href="${pageHref(query.page + 1)}" rel="next">Next page</a>` : '',
  ];
  return html`${notice}
<form method="get" action="/ops/bank-accounts" class="filters">
<p><label for="filter-status">Status</label><br><select id="filter-status" name="status">
${option('pending', 'pending (the queue)')}${BANK_ACCOUNT_STATUSES.filter((status) => status !== 'pending').map((status) => option(status, status))}${option('any', 'any status')}
</select></p>
<p class="filter-actions"><button type="submit">Show</button></p></form>
${
  rows.length === 0
    ? html`<p class="empty" role="status">No bank accounts ${query.status === null ? '' : `in status ${query.status}`} on this page.</p>`
    : html`<div class="table-wrap"><table>
<caption>Bank accounts, oldest first (${OPERATOR_BANK_ACCOUNT_PAGE_SIZE} a page)</caption>
<thead><tr><th scope="col">Id</th><th scope="col">Added</th><th scope="col">Profile</th><th scope="col">Account</th><th scope="col">Holder, bank</th>
<th scope="col">Status</th><th scope="col">Decision</th></tr></thead>
<tbody>${rows.map((row) => accountRow(request, row))}</tbody></table></div>`
}
<nav aria-label="Bank account pages" class="pages">${pages}</nav>`;
}

function accountRow(request: FastifyRequest, row: BankAccountRow): SafeHtml {
  const open = row.status === 'pending' || row.status === 'pending_request';
  const decision = open
    ? html`<form method="post" action="/ops/bank-accounts/${row.id}/approve" class="inline">${csrfField(request)}
<label for="outer-${row.id}">Provider's id (optional)</label><input id="outer-${row.id}" name="outer_id" maxlength="${OUTER_ID_LENGTH_MAX}">
<button type="submit">Approve</button></form>
<form method="post" action="/ops/bank-accounts/${row.id}/decline" class="inline">${csrfField(request)}<button type="submit" class="danger" data-confirm="Decline bank account ${row.id}?">Decline</button></form>`
    : '—';
  return html`<tr><th scope="row">${row.id}</th><td>${timeText(row.createdAt)}</td><td><a href="/ops/users/${row.profileId}">${row.profileId}</a></td>
<td><code>${row.value}</code> ${row.currency} (${row.provider})${row.swiftCode ? ` · SWIFT ${row.swiftCode}` : ''}</td>
<td>${row.accountHolder ?? '—'}${row.bankName ? `, ${row.bankName}` : ''}</td>
<td><span class="status status-${row.status}">${row.status}</span>${row.verified ? ' · verified' : ''}</td><td>${decision}</td></tr>`;
}
