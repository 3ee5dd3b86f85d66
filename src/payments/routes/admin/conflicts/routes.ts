import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { listConflicts, resolveConflict } from '../../../flows/conflict-resolution.ts';
import type { ConflictRecord } from '../../../store/conflicts-repo.ts';
import {
  ConflictEnvelope,
  ConflictIdParams,
  ConflictListEnvelope,
  ConflictListQuery,
  ConflictListRefused,
  ConflictNotFound,
  ConflictResolveRefused,
  ErrorEnvelope,
  ResolveConflictBody,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: conflicts'];

function presentConflict(conflict: ConflictRecord) {
  return {
    id: conflict.id,
    payment_token: conflict.paymentToken,
    merchant_id: conflict.merchantId,
    environment: conflict.environment,
    source: conflict.source,
    payment_status: conflict.paymentStatus,
    current_status: conflict.currentStatus,
    reported_status: conflict.reportedStatus,
    reported_amount: conflict.reportedAmountMinor,
    reported_currency: conflict.reportedCurrency,
    raw_answer: conflict.rawAnswer,
    created_at: conflict.createdAt.toISOString(),
    resolution: conflict.resolution,
    resolved_by: conflict.resolvedBy,
    resolved_at: conflict.resolvedAt?.toISOString() ?? null,
  };
}

// Late provider answers that contradicted a payment's final status (issue 18 item 3), for an operator to resolve.
export async function conflictAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  routes.get(
    '/conflicts',
    {
      schema: {
        operationId: 'adminListConflicts',
        summary: "List late provider answers that contradicted a payment's final status, newest first",
        description:
          'Operators only (admin key). A callback or /status answer that reported approved after declined or expired, or declined after approved, ' +
          'on a gateway without enable_change_final_status: the status was kept and the conflict recorded. state=unresolved (default) or all; ' +
          `page and perPage (at most 100). unresolvedCount counts every unresolved conflict.`,
        tags,
        security,
        querystring: ConflictListQuery,
        response: { 200: ConflictListEnvelope, 401: ErrorEnvelope, 422: ConflictListRefused },
      },
    },
    async (request) => {
      const { state, page, perPage } = request.query;
      const found = await listConflicts(db, { unresolvedOnly: state === 'unresolved', page, perPage });
      return {
        success: true as const,
        unresolvedCount: found.unresolvedCount,
        totalCount: found.totalCount,
        page,
        perPage,
        conflicts: found.rows.map(presentConflict),
      };
    },
  );

  routes.post(
    '/conflicts/:id/resolve',
    {
      schema: {
        operationId: 'adminResolveConflict',
        summary: 'Accept the reported status of a conflict, or dismiss it',
        description:
          'Operators only (admin key). accept moves the payment to the reported status through the state machine (as enable_change_final_status ' +
          'would have), with its ledger posting and the merchant notification; dismiss keeps the status. Both record who (operator, or the admin ' +
          'key and address) and when. A conflict already resolved answers 409 invalid_state.',
        tags,
        security,
        params: ConflictIdParams,
        body: ResolveConflictBody,
        response: { 200: ConflictEnvelope, 401: ErrorEnvelope, 404: ConflictNotFound, 409: ConflictResolveRefused, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const resolvedBy = request.body.operator ?? `admin key from ${request.ip}`;
      const conflict = await resolveConflict(db, request.params.id, request.body.action, resolvedBy);
      return { success: true as const, conflict: presentConflict(conflict) };
    },
  );
}
