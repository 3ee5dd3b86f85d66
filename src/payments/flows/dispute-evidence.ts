import { DISPUTE_DOCUMENT_COUNT_MAX, disputeAcceptsEvidence } from '../domain/dispute-status.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { countDisputeDocuments, findDispute, insertDisputeDocuments, lockScopedDispute, type DisputeRecord } from '../store/disputes-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { withKeptDocuments } from './kept-documents.ts';
import { reserveEvidenceSpace, type EvidenceQuotaBytes } from './dispute-evidence-quota.ts';
import type { DisputeDeps, IncomingDocument } from './disputes.ts';

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

export interface EvidenceRequest {
  documents: readonly IncomingDocument[]; // read by flows/dispute-upload.ts: the dispute form's rules
  evidenceQuotaBytes: EvidenceQuotaBytes;
}

const disputeNotFound = () => new ApiError('not_found', 404, 'dispute not found');

// More evidence for a dispute that is not resolved yet (the dashboard): the documents get their stored names, then in
// one transaction under the dispute's lock they are counted against the dispute's bound and the merchant's evidence
// quota and recorded. Whatever fails after the names were given removes the files again.
export async function addDisputeEvidence(deps: DisputeDeps, scope: MerchantScope, token: string, request: EvidenceRequest): Promise<DisputeRecord> {
  if (!TOKEN_PATTERN.test(token)) throw disputeNotFound();
  if (request.documents.length === 0) {
    throw new ApiError('invalid_field', 422, 'choose at least one file to attach', [{ code: 'invalid_field', field: 'document[]', message: 'is empty' }]);
  }
  return withKeptDocuments(deps.documents, request.documents, (documents) =>
    deps.db.transaction(async (tx) => {
      // Another merchant's or environment's dispute is indistinguishable from a missing one.
      const dispute = await lockScopedDispute(tx, scope, token);
      if (!dispute) throw disputeNotFound();
      if (!disputeAcceptsEvidence(dispute.status)) {
        throw new ApiError('invalid_state', 409, `the dispute is ${dispute.status}: evidence can no longer be added`);
      }
      const held = await countDisputeDocuments(tx, dispute.id);
      if (held + documents.length > DISPUTE_DOCUMENT_COUNT_MAX) {
        const message = `a dispute keeps at most ${DISPUTE_DOCUMENT_COUNT_MAX} documents; this one has ${held}`;
        throw new ApiError('too_many_documents', 422, message, [{ code: 'too_many_documents', field: 'document[]', message }]);
      }
      await reserveEvidenceSpace(
        tx,
        scope,
        request.evidenceQuotaBytes,
        documents.map((document) => document.sizeBytes),
      );
      await insertDisputeDocuments(tx, dispute.id, documents);
      const record = await findDispute(tx, { scope }, token);
      if (!record) throw new Error(`dispute ${dispute.id} vanished inside its own transaction`);
      return record;
    }),
  );
}
