import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { addDisputeEvidence, DISPUTE_MULTIPART_OPTIONS, evidenceQuotaOf, readDisputeForm } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { showDispute, type DisputePageContext } from './dispute-detail-view.ts';
import { recordAuditEvent } from '../../flows/audit-log.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { requireAction } from './guard.ts';

type StagedDocuments = Awaited<ReturnType<typeof readDisputeForm>>['documents'];

// POST /dashboard/disputes/:token/evidence, multipart/form-data parsed in this scope only. The files are read by the
// merchant API's dispute form rules (payments' readDisputeForm: count, size, PDF/PNG/JPEG by content, the evidence
// quota) and kept by addDisputeEvidence. The CSRF token comes in the query: the frame checks it before the body is
// read, and the role is checked before a byte is staged.
export async function disputeEvidenceUpload(app: FastifyInstance, options: { context: DisputePageContext }): Promise<void> {
  const { context } = options;
  const { deps } = context;
  await app.register(fastifyMultipart, DISPUTE_MULTIPART_OPTIONS);

  app.post<{ Params: { token: string } }>('/disputes/:token/evidence', async (request, reply) => {
    const viewer = requireAction(request, 'dispute');
    let staged: StagedDocuments = [];
    try {
      if (!request.isMultipart()) throw new ApiError('unsupported_media_type', 415, 'send the files as multipart/form-data');
      const quota = await evidenceQuotaOf(deps.db, viewer, context.evidenceQuotaBytes);
      const form = await readDisputeForm(request.parts(), deps.documents, quota);
      staged = form.documents;
      const stray = Object.keys(form.body.fields).find((name) => name !== '_csrf');
      if (stray !== undefined) throw new ApiError('unknown_field', 422, `${stray} is not a field of the evidence form`);
      if (form.quotaRefusal !== null) throw form.quotaRefusal;
      const dispute = await addDisputeEvidence(deps, viewer, request.params.token, {
        documents: staged,
        evidenceQuotaBytes: context.evidenceQuotaBytes,
      });
      await recordAuditEvent(deps.db, {
        action: 'dispute.add_evidence',
        subjectType: 'dispute',
        subjectId: dispute.token,
        after: { documents: staged.length },
      });
      return reply.redirect(`/dashboard/disputes/${dispute.token}?added=${staged.length}`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || error.code === 'not_found') throw error;
      return showDispute(context, request, reply, request.params.token, { notice: null, problem: problemOf(error), status: error.statusCode });
    } finally {
      // Kept documents were renamed: only a refused upload leaves anything here to remove.
      await Promise.allSettled(staged.map((document) => deps.documents.discard(document.staged)));
    }
  });
}
