import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sendDocument } from '../../../../platform/lib/document-download.ts';
import type { FastifyInstance } from 'fastify';
import { findOperatorDisputes } from '../../../flows/dispute-list.ts';
import { actOnDispute } from '../../../flows/dispute-resolution.ts';
import { getDispute, readDisputeDocument, type DisputeDeps } from '../../../flows/disputes.ts';
import { DocumentStore } from '../../../../platform/lib/document-store.ts';
import type { DisputeRecord } from '../../../store/disputes-repo.ts';
import {
  DisputeDocumentParams,
  DisputeMoveRefused,
  DisputeNotFound,
  DisputeTokenParams,
  DocumentBytes,
  DocumentNotFound,
  ErrorEnvelope,
  ListFiltersRefused,
  OperatorDisputeEnvelope,
  OperatorDisputeListEnvelope,
  OperatorDisputeListQuery,
  ResolveDisputeBody,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: disputes'];

function presentDispute(dispute: DisputeRecord) {
  return {
    token: dispute.token,
    merchant_id: dispute.merchantId,
    environment: dispute.environment,
    payment_token: dispute.paymentToken,
    amount: dispute.amountMinor,
    currency: dispute.currency,
    status: dispute.status,
    description: dispute.description,
    resolution_note: dispute.resolutionNote,
    documents: dispute.documents.map((document) => ({
      id: document.id,
      file_name: document.fileName,
      media_type: document.mediaType,
      size: document.sizeBytes,
      sha256: document.sha256,
    })),
    created_at: dispute.createdAt.toISOString(),
    updated_at: dispute.updatedAt.toISOString(),
    resolved_at: dispute.resolvedAt?.toISOString() ?? null,
  };
}

// Operators review and resolve merchants' disputes (issue 8); each move notifies the merchant.
export async function disputeAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps: DisputeDeps = { db: app.payrail.database.db, documents: new DocumentStore(app.payrail.config.disputeDocumentsDir) };

  routes.get(
    '/disputes',
    {
      schema: {
        operationId: 'adminListDisputes',
        summary: 'List disputes of every merchant, newest first',
        description:
          'Operators only (admin key). Filters by merchant, environment and status; perPage a page, and nextCursor, sent back as cursor ' +
          'with the same filters, gives the next one.',
        tags,
        security,
        querystring: OperatorDisputeListQuery,
        response: { 200: OperatorDisputeListEnvelope, 401: ErrorEnvelope, 422: ListFiltersRefused },
      },
    },
    async (request) => {
      const { merchantId, environment, status, cursor, perPage } = request.query;
      const found = await findOperatorDisputes(deps.db, {
        merchantId: merchantId ?? null,
        environment: environment ?? null,
        status: status ?? null,
        cursor: cursor ?? null,
        perPage,
      });
      return { success: true as const, perPage: found.perPage, nextCursor: found.nextCursor, disputes: found.rows.map(presentDispute) };
    },
  );

  routes.get(
    '/disputes/:token',
    {
      schema: {
        operationId: 'adminGetDispute',
        summary: 'Get one dispute',
        description: "Operators only (admin key). Any merchant's dispute, with the list of its documents.",
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: DisputeNotFound },
      },
    },
    async (request) => ({ success: true as const, dispute: presentDispute(await getDispute(deps.db, { operator: true }, request.params.token)) }),
  );

  routes.post(
    '/disputes/:token/review',
    {
      schema: {
        operationId: 'adminReviewDispute',
        summary: 'Put an open dispute under review',
        description: 'Operators only (admin key). open → under_review; the merchant is notified. Any other status answers 409 invalid_state.',
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: DisputeNotFound, 409: DisputeMoveRefused },
      },
    },
    async (request) => ({ success: true as const, dispute: presentDispute(await actOnDispute(deps.db, request.params.token, { kind: 'review' }, null)) }),
  );

  routes.post(
    '/disputes/:token/resolve',
    {
      schema: {
        operationId: 'adminResolveDispute',
        summary: 'Resolve an open or reviewed dispute: won (hold back to available) or lost (hold to the customer)',
        description:
          "Operators only (admin key). won returns the held amount to the merchant's available balance; lost pays it to the customer. " +
          'The optional note is shown to the merchant, who is notified. A dispute already won or lost answers 409 invalid_state.',
        tags,
        security,
        params: DisputeTokenParams,
        body: ResolveDisputeBody,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: DisputeNotFound, 409: DisputeMoveRefused, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const { outcome, note } = request.body;
      const dispute = await actOnDispute(deps.db, request.params.token, { kind: 'resolve', outcome }, note ?? null);
      return { success: true as const, dispute: presentDispute(dispute) };
    },
  );

  routes.get(
    '/disputes/:token/documents/:id',
    {
      schema: {
        operationId: 'adminDownloadDisputeDocument',
        summary: "Download one of a dispute's documents",
        description:
          'Operators only (admin key). The file as the merchant uploaded it (PDF, PNG or JPEG), as an attachment under a sandboxing ' +
          "Content-Security-Policy; id is from the dispute's documents list. Failures answer in JSON.",
        tags,
        security,
        params: DisputeDocumentParams,
        response: {
          200: {
            description: 'the file as uploaded; `Content-Type` is its recognised media type, `Content-Disposition` attachment',
            content: { 'application/pdf': { schema: DocumentBytes }, 'image/png': { schema: DocumentBytes }, 'image/jpeg': { schema: DocumentBytes } },
          },
          401: ErrorEnvelope,
          404: DocumentNotFound,
        },
      },
    },
    async (request, reply) => {
      const download = await readDisputeDocument(deps, { operator: true }, request.params.token, request.params.id);
      return sendDocument(reply, download);
    },
  );
}
