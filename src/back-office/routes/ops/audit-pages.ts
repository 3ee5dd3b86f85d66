import type { FastifyInstance } from 'fastify';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { type AuditPage, type AuditQuery, findAuditEvents } from '../../flows/audit-log.ts';
import { sendAuditCsv } from '../../pages/audit-csv.ts';
import { problemOf } from '../../pages/form-errors.ts';
import type { AuditEventRow } from '../../store/audit-repo.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';

const FILTERS = ['subject', 'actor', 'action', 'from', 'to'] as const;
type AuditFilters = Record<(typeof FILTERS)[number], string>;
const PAGE_SIZE = 50;

function filtersOf(query: Record<string, unknown>): AuditFilters {
  const text = (name: string) => (typeof query[name] === 'string' ? String(query[name]).slice(0, 130) : '');
  return { subject: text('subject'), actor: text('actor'), action: text('action'), from: text('from'), to: text('to') };
}

function hrefOf(path: string, filters: AuditFilters, cursor: string | null): string {
  const params = new URLSearchParams(Object.entries(filters).filter(([, value]) => value !== ''));
  if (cursor !== null) params.set('cursor', cursor);
  const query = params.toString();
  return query === '' ? path : `${path}?${query}`;
}

// The audit log in the console: the API's filters, newest first, a keyset "next page", the same selection as CSV.
export async function auditPages(app: FastifyInstance): Promise<void> {
  const db = app.payrail.database.db;
  app.get<{ Querystring: Record<string, unknown> }>('/audit', async (request, reply) => {
    requireOperatorAction(request, 'audit');
    const filters = filtersOf(request.query);
    const cursor = typeof request.query['cursor'] === 'string' ? request.query['cursor'] : undefined;
    let found: AuditPage | null = null;
    let problem: SafeHtml | '' = '';
    try {
      found = await findAuditEvents(db, { ...queryOf(filters), cursor, limit: PAGE_SIZE });
    } catch (error) {
      problem = problemOf(error);
    }
    return opsPage(request, reply, {
      title: 'Audit log',
      area: 'audit',
      status: found === null ? 400 : 200,
      body: html`${problem}${filterForm(filters)}${found === null ? '' : results(filters, found, cursor !== undefined)}`,
    });
  });
  app.get<{ Querystring: Record<string, unknown> }>('/audit.csv', async (request, reply) => {
    requireOperatorAction(request, 'audit');
    requireOperatorAction(request, 'exports');
    return sendAuditCsv(reply, db, queryOf(filtersOf(request.query)));
  });
}

function queryOf(filters: AuditFilters): Omit<AuditQuery, 'cursor' | 'limit'> {
  const given = (value: string) => (value === '' ? undefined : value);
  return { subject: given(filters.subject), actor: given(filters.actor), action: given(filters.action), from: given(filters.from), to: given(filters.to) };
}

function filterForm(filters: AuditFilters): SafeHtml {
  const field = (name: keyof AuditFilters, label: string, hint: string) =>
    html`<p><label for="audit-${name}">${label}</label><br><input id="audit-${name}" name="${name}" value="${filters[name]}" placeholder="${hint}" maxlength="130"></p>`;
  return html`<form method="get" action="/ops/audit" class="filters">
  ${field('subject', 'Subject', 'merchant:12')}
  ${field('actor', 'Actor', 'operator:3')}
  ${field('action', 'Action', 'merchant.approve')}
  ${field('from', 'From (UTC)', '2026-11-01')}
  ${field('to', 'To (UTC)', '2026-12-01')}
  <p class="filter-actions"><button type="submit">Filter</button> <a href="/ops/audit">Clear</a></p>
</form>`;
}

function results(filters: AuditFilters, found: AuditPage, paged: boolean): SafeHtml {
  const pages = [
    paged ? html`<a href="${hrefOf('/ops/audit', filters, null)}">First page</a>` : '',
    found.nextCursor === null ? '' : html`<a href="${hrefOf('/ops/audit', filters, found.nextCursor)}" rel="next">Next page</a>`,
  ];
  if (found.events.length === 0) return html`<p class="empty" role="status">No events match.</p>${pages}`;
  return html`<p><a href="${hrefOf('/ops/audit.csv', filters, null)}" download>Export CSV</a></p>
<div class="table-wrap"><table class="audit">
<caption>Audit events, newest first</caption>
<thead><tr><th scope="col">Time (UTC)</th><th scope="col">Actor</th><th scope="col">Action</th><th scope="col">Subject</th><th scope="col">Before</th><th scope="col">After</th><th scope="col">Request</th></tr></thead>
<tbody>${found.events.map(eventRow)}</tbody>
</table></div>
<nav aria-label="Audit log pages" class="pages">${pages}</nav>`;
}

function eventRow(event: AuditEventRow): SafeHtml {
  const fields = (value: Record<string, unknown> | null) => (value === null ? '' : html`<code class="json">${JSON.stringify(value)}</code>`);
  return html`<tr>
  <td><time datetime="${event.occurredAt.toISOString()}">${event.occurredAt.toISOString().replace('T', ' ').slice(0, 19)}</time></td>
  <td><a href="/ops/audit?actor=${encodeURIComponent(event.actor)}">${event.actor}</a></td>
  <td>${event.action}</td>
  <th scope="row"><a href="/ops/audit?subject=${encodeURIComponent(`${event.subjectType}:${event.subjectId}`)}">${event.subjectType}:${event.subjectId}</a></th>
  <td>${fields(event.before)}</td>
  <td>${fields(event.after)}</td>
  <td><small>${event.requestId ?? ''}${event.ipAddress ? html` · ${event.ipAddress}` : ''}</small></td>
</tr>`;
}
