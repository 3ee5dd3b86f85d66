import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { findAuditEvents } from '../../flows/audit-log.ts';
import { sendAuditCsv } from '../../pages/audit-csv.ts';
import type { AuditEventRow } from '../../store/audit-repo.ts';
import { AuditEventsCsvQuery, AuditEventsPage, AuditEventsQuery } from './schemas.ts';

const DESCRIPTION =
  'Operators only. Every change of an audited record (merchants, keys, gateways, commissions, payments, payouts, refunds, disputes, ' +
  'conflicts, members, operators, core banking users, bank accounts, app tokens) and every operator or member action, written in the ' +
  'transaction of the change; append-only (the database refuses UPDATE and DELETE). Newest first; filters combine.';

// The audit log for automation and auditors: keyset pages of JSON, or the whole selection as CSV.
export async function auditAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;
  const invalid = errorEnvelopeSchema({ meaning: 'a filter is not valid (subject, dates, cursor)', codes: 'invalid_request' });
  routes.get(
    '/audit-events',
    {
      schema: {
        operationId: 'adminListAuditEvents',
        summary: 'List audit events',
        description: DESCRIPTION,
        tags: ['admin: audit'],
        security: [{ adminKey: [] }],
        querystring: AuditEventsQuery,
        response: { 200: AuditEventsPage, 400: invalid },
      },
    },
    async (request) => {
      const page = await findAuditEvents(db, request.query);
      return { success: true as const, events: page.events.map(eventJson), next_cursor: page.nextCursor };
    },
  );
  routes.get(
    '/audit-events.csv',
    {
      schema: {
        operationId: 'adminExportAuditEvents',
        summary: 'Export audit events as CSV',
        description: `${DESCRIPTION} Streamed: id, occurred_at, actor, action, subject_type, subject_id, before and after (JSON), request_id, ip_address.`,
        tags: ['admin: audit'],
        security: [{ adminKey: [] }],
        querystring: AuditEventsCsvQuery,
        response: {
          200: {
            description: 'the events as CSV (RFC 4180, CRLF); a text field a spreadsheet would read as a formula starts with an apostrophe',
            content: { 'text/csv': { schema: Type.String() } },
          },
          400: invalid,
        },
      },
    },
    async (request, reply) => sendAuditCsv(reply, db, request.query),
  );
}

function eventJson(event: AuditEventRow) {
  return {
    id: event.id,
    occurred_at: event.occurredAt.toISOString(),
    actor: event.actor,
    action: event.action,
    subject_type: event.subjectType,
    subject_id: event.subjectId,
    before: event.before,
    after: event.after,
    request_id: event.requestId,
    ip_address: event.ipAddress,
  };
}
