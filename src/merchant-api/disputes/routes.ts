import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { findMerchantDisputes } from '../../flows/dispute-list.ts';
import { getDispute, readDisputeDocument, type DisputeDeps } from '../../flows/disputes.ts';
import { attachmentDisposition, DocumentStore } from '../../lib/document-store.ts';
import { disputeCreateRoute } from './create-route.ts';
import { disputeEnvelope, presentDispute } from './present.ts';
import { DisputeDocumentParams, DisputeEnvelope, DisputeListEnvelope, DisputeListQuery, DisputeTokenParams, DocumentBytes, ErrorEnvelope } from './schemas.ts';

const security = [{ merchantKey: [] }];
const tags = ['disputes'];
// A document is evidence to download, never a page to render: no script, no plugin, no sniffing.
const DOCUMENT_CSP = "default-src 'none'; sandbox";

export async function disputeRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps: DisputeDeps = { db: app.payrail.database.db, documents: new DocumentStore(app.payrail.config.disputeDocumentsDir) };
  await app.register(disputeCreateRoute, { deps });

  routes.get(
    '/api/v1/disputes',
    {
      schema: {
        summary: "List the merchant's disputes of this key's environment, newest first",
        tags,
        security,
        querystring: DisputeListQuery,
        response: { 200: DisputeListEnvelope, 401: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const { status, cursor, perPage } = request.query;
      const found = await findMerchantDisputes(deps.db, request.merchant!, { status: status ?? null, cursor: cursor ?? null, perPage });
      return { success: true as const, result: 0 as const, perPage: found.perPage, nextCursor: found.nextCursor, disputes: found.rows.map(presentDispute) };
    },
  );

  routes.get(
    '/api/v1/disputes/:token',
    {
      schema: {
        summary: 'Get one dispute',
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: DisputeEnvelope, 401: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => disputeEnvelope(await getDispute(deps.db, { scope: request.merchant! }, request.params.token)),
  );

  routes.get(
    '/api/v1/disputes/:token/documents/:id',
    {
      schema: {
        summary: "Download one of the dispute's documents (to its own merchant only)",
        tags,
        security,
        params: DisputeDocumentParams,
        produces: ['application/pdf', 'image/png', 'image/jpeg'],
        response: { 200: DocumentBytes, 401: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const download = await readDisputeDocument(deps, { scope: request.merchant! }, request.params.token, request.params.id);
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
