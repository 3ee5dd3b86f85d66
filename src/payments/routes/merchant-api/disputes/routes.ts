import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sendDocument } from '../../../../platform/lib/document-download.ts';
import type { FastifyInstance } from 'fastify';
import { findMerchantDisputes } from '../../../flows/dispute-list.ts';
import { getDispute, readDisputeDocument, type DisputeDeps } from '../../../flows/disputes.ts';
import { DocumentStore } from '../../../../platform/lib/document-store.ts';
import { disputeCreateRoute } from './create-route.ts';
import { disputeEnvelope, presentDispute } from './present.ts';
import { DisputeDocumentParams, DisputeEnvelope, DisputeListEnvelope, DisputeListQuery, DisputeTokenParams, DocumentBytes, ErrorEnvelope } from './schemas.ts';

const security = [{ merchantKey: [] }];
const tags = ['disputes'];

export async function disputeRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps: DisputeDeps = { db: app.payrail.database.db, documents: new DocumentStore(app.payrail.config.disputeDocumentsDir) };
  await app.register(disputeCreateRoute, { deps });

  routes.get(
    '/api/v1/disputes',
    {
      schema: {
        operationId: 'listDisputes',
        summary: "List the merchant's disputes of this key's environment, newest first",
        description:
          "Optionally of one `status`. Pages by cursor: send the answer's `nextCursor` (with the same filters) for the next page; `nextCursor` is null on the last one.",
        tags,
        security,
        querystring: DisputeListQuery,
        response: { 200: DisputeListEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 422: ErrorEnvelope },
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
        operationId: 'getDispute',
        summary: 'Get one dispute',
        description:
          "A dispute of this merchant in the key's environment by its own token: its status, the operator's resolution note once resolved, and its documents (download each with `GET /api/v1/disputes/{token}/documents/{id}`). 404 `not_found` for any other token.",
        tags,
        security,
        params: DisputeTokenParams,
        response: { 200: DisputeEnvelope, 401: ErrorEnvelope, 403: ErrorEnvelope, 404: ErrorEnvelope },
      },
    },
    async (request) => disputeEnvelope(await getDispute(deps.db, { scope: request.merchant! }, request.params.token)),
  );

  routes.get(
    '/api/v1/disputes/:token/documents/:id',
    {
      schema: {
        operationId: 'downloadDisputeDocument',
        summary: "Download one of the dispute's documents (to its own merchant only)",
        description:
          'The file as it was uploaded, as an attachment, with its recognised media type (PDF, PNG or JPEG). Failures answer in JSON: 404 `not_found` for a dispute of another merchant or environment, or an unknown document id.',
        tags,
        security,
        params: DisputeDocumentParams,
        response: {
          200: {
            description: 'the file as uploaded; `Content-Type` is its recognised media type, `Content-Disposition` attachment',
            content: { 'application/pdf': { schema: DocumentBytes }, 'image/png': { schema: DocumentBytes }, 'image/jpeg': { schema: DocumentBytes } },
          },
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const download = await readDisputeDocument(deps, { scope: request.merchant! }, request.params.token, request.params.id);
      return sendDocument(reply, download);
    },
  );
}
