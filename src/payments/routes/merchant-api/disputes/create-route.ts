import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { evidenceQuotaOf } from '../../../flows/dispute-evidence-quota.ts';
import { getDispute, openDispute, type DisputeDeps, type IncomingDocument } from '../../../flows/disputes.ts';
import { ApiError } from '../../../../platform/lib/errors.ts';
import { keyCommitOf } from '../idempotency.ts';
import { disputeEnvelope } from './present.ts';
import { CreateDisputeForm, DisputeEnvelope, ErrorEnvelope, QuotaErrorEnvelope, isDisputeFormValue, validateDisputeForm } from './schemas.ts';
import { DISPUTE_MULTIPART_OPTIONS, readDisputeForm } from '../../../flows/dispute-upload.ts';

// POST /api/v1/disputes in a scope of its own: multipart/form-data is parsed here and nowhere else.
export async function disputeCreateRoute(app: FastifyInstance, options: { deps: DisputeDeps }): Promise<void> {
  const { deps } = options;
  await app.register(fastifyMultipart, DISPUTE_MULTIPART_OPTIONS);
  // The documents a request staged, until the flow keeps them or the request ends without it.
  const stagedOf = new WeakMap<FastifyRequest, IncomingDocument[]>();
  const quotaRefusalOf = new WeakMap<FastifyRequest, ApiError>(); // readDisputeForm: the documents do not fit
  const evidenceQuotaBytes = app.payrail.config.disputeEvidenceQuotaBytes;
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
          'Holds the disputed amount from the available balance until an operator resolves the dispute: won gives it back, lost sends it to the customer. The form has the fields `token`, `description` and `amount`, and up to the limit of files as `document[]`. Errors: 404 unknown payment, 409 `invalid_state` (payment not approved/refunded), 413 `document_too_large`, 413 `evidence_quota_exceeded` (the evidence quota of the merchant in this environment, PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES / PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES, 200 / 20 MiB by default: the error tells `quotaLeftBytes`; nothing is stored), 415 not multipart, 422 invalid fields, `too_many_documents`, `unsupported_document_type`, `amount_exceeds_disputable`, `insufficient_balance`. An `Idempotency-Key` header makes a retry safe.',
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
          413: QuotaErrorEnvelope,
          415: ErrorEnvelope,
          422: ErrorEnvelope,
        },
      },
      config: {
        // the dispute's answer again, for a retry whose first request died before it answered
        idempotentReplay: async (request, resource) => disputeEnvelope(await getDispute(deps.db, { scope: request.merchant! }, resource.token)),
      },
      validatorCompiler: () => validateDisputeForm,
      preValidation: async (request, reply) => {
        if (!request.isMultipart()) throw new ApiError('unsupported_media_type', 415, 'Content-Type must be multipart/form-data');
        reply.raw.once('close', () => void discardStaged(request)); // a client that went away leaves nothing behind
        const quota = await evidenceQuotaOf(deps.db, request.merchant!, evidenceQuotaBytes);
        const form = await readDisputeForm(request.parts(), deps.documents, quota);
        stagedOf.set(request, form.documents);
        if (form.quotaRefusal !== null) quotaRefusalOf.set(request, form.quotaRefusal);
        request.body = form.body;
      },
      onSend: async (request, _reply, payload) => {
        await discardStaged(request); // kept documents were renamed: only refused requests leave anything to remove
        return payload;
      },
    },
    async (request) => {
      const form = request.body;
      if (!isDisputeFormValue(form)) throw new Error('the dispute form reached its handler unvalidated');
      const quotaRefusal = quotaRefusalOf.get(request);
      if (quotaRefusal) throw quotaRefusal; // after the Idempotency-Key had its chance to replay an earlier answer
      const dispute = await openDispute(deps, request.merchant!, {
        paymentToken: form.token,
        description: form.description,
        amountMinor: form.amount,
        documents: stagedOf.get(request) ?? [],
        evidenceQuotaBytes,
        commitKey: keyCommitOf(request), // committed with the dispute, in its transaction
      });
      return disputeEnvelope(dispute);
    },
  );
}
