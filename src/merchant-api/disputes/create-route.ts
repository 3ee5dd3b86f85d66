import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { openDispute, type DisputeDeps, type IncomingDocument } from '../../flows/disputes.ts';
import { ApiError } from '../../lib/errors.ts';
import { commitIdempotentRequest } from '../idempotency.ts';
import { disputeEnvelope } from './present.ts';
import { CreateDisputeForm, DisputeEnvelope, ErrorEnvelope, validateDisputeForm, type DisputeFormValue } from './schemas.ts';
import { DISPUTE_MULTIPART_OPTIONS, readDisputeForm } from './upload.ts';

// POST /api/v1/disputes in a scope of its own: multipart/form-data is parsed here and nowhere else.
export async function disputeCreateRoute(app: FastifyInstance, options: { deps: DisputeDeps }): Promise<void> {
  const { deps } = options;
  await app.register(fastifyMultipart, DISPUTE_MULTIPART_OPTIONS);
  // The documents a request staged, until the flow keeps them or the request ends without it.
  const stagedOf = new WeakMap<FastifyRequest, IncomingDocument[]>();
  // Never throws: a leftover temporary file is swept later (DocumentStore), and must not turn an answer into a 500.
  const discardStaged = async (request: FastifyRequest) => {
    const staged = stagedOf.get(request);
    stagedOf.delete(request);
    if (!staged) return;
    await Promise.all(staged.map((document) => deps.documents.discard(document.staged))).catch((error: unknown) => {
      request.log.warn({ err: error }, 'a staged dispute document could not be removed');
    });
  };

  app.post(
    '/api/v1/disputes',
    {
      schema: {
        operationId: 'createDispute',
        summary: 'Open a dispute of an approved payment, with evidence documents (multipart/form-data)',
        description:
          'Holds the disputed amount from the available balance until an operator resolves the dispute: won gives it back, lost sends it to the customer. The form has the fields `token`, `description` and `amount`, and up to the limit of files as `document[]`. Errors: 404 unknown payment, 409 `invalid_state` (payment not approved/refunded), 413 `document_too_large`, 415 not multipart, 422 invalid fields, `too_many_documents`, `unsupported_document_type`, `amount_exceeds_disputable`, `insufficient_balance`. An `Idempotency-Key` header makes a retry safe.',
        tags: ['disputes'],
        security: [{ merchantKey: [] }],
        consumes: ['multipart/form-data'],
        body: CreateDisputeForm,
        response: {
          200: DisputeEnvelope,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
          413: ErrorEnvelope,
          415: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
      validatorCompiler: () => validateDisputeForm,
      preValidation: async (request, reply) => {
        if (!request.isMultipart()) throw new ApiError('unsupported_media_type', 415, 'Content-Type must be multipart/form-data');
        reply.raw.once('close', () => void discardStaged(request)); // a client that went away leaves nothing behind
        const form = await readDisputeForm(request, deps.documents);
        stagedOf.set(request, form.documents);
        request.body = form.body;
      },
      onSend: async (request, _reply, payload) => {
        await discardStaged(request); // kept documents were renamed: only refused requests leave anything to remove
        return payload;
      },
    },
    async (request) => {
      const form = request.body as DisputeFormValue;
      const dispute = await openDispute(deps, request.merchant!, {
        paymentToken: form.token,
        description: form.description,
        amountMinor: form.amount,
        documents: stagedOf.get(request) ?? [],
      });
      await commitIdempotentRequest(request); // the dispute exists: this key's outcome is stored from here on
      return disputeEnvelope(dispute);
    },
  );
}
