import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { findOperatorDisputes } from '../../flows/dispute-list.ts';
import { actOnDispute } from '../../flows/dispute-resolution.ts';
import { getDispute, readDisputeDocument, type DisputeDeps } from '../../flows/disputes.ts';
import { attachmentDisposition, DocumentStore } from '../../lib/document-store.ts';
import type { DisputeRecord } from '../../store/disputes-repo.ts';
import {
  DisputeDocumentParams,
  DisputeTokenParams,
  DocumentBytes,
  ErrorEnvelope,
  OperatorDisputeEnvelope,
  OperatorDisputeListEnvelope,
  OperatorDisputeListQuery,
  ResolveDisputeBody,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: disputes'];
const DOCUMENT_CSP = "default-src 'none'; sandbox";

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
        summary: 'List disputes of every merchant, newest first',
        tags,
        security,
        querystring: OperatorDisputeListQuery,
        response: { 200: OperatorDisputeListEnvelope, 401: ErrorEnvelope, 422: ErrorEnvelope },
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
        summary: 'Get one dispute',
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => ({ success: true as const, dispute: presentDispute(await getDispute(deps.db, { operator: true }, request.params.token)) }),
  );

  routes.post(
    '/disputes/:token/review',
    {
      schema: {
        summary: 'Put an open dispute under review',
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope },
      },
    },
    async (request) => ({ success: true as const, dispute: presentDispute(await actOnDispute(deps.db, request.params.token, { kind: 'review' }, null)) }),
  );

  routes.post(
    '/disputes/:token/resolve',
    {
      schema: {
        summary: 'Resolve an open or reviewed dispute: won (hold back to available) or lost (hold to the customer)',
        tags,
        security,
        params: DisputeTokenParams,
        body: ResolveDisputeBody,
        response: { 200: OperatorDisputeEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope },
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
        summary: "Download one of a dispute's documents",
        tags,
        security,
        params: DisputeDocumentParams,
        produces: ['application/pdf', 'image/png', 'image/jpeg'],
        response: { 200: DocumentBytes, 401: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const download = await readDisputeDocument(deps, { operator: true }, request.params.token, request.params.id);
      return reply
        .header('content-type', download.document.mediaType)
        .header('content-length', download.sizeBytes)
        .header('content-disposition', attachmentDisposition(download.document.fileName))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', DOCUMENT_CSP)
        .send(download.stream);
    },
  );
}
