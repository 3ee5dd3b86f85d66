import type { DisputeRecord } from '../../../store/disputes-repo.ts';

// A dispute as the merchant sees it (the stored file names and hashes stay inside).
export function presentDispute(dispute: DisputeRecord) {
  return {
    token: dispute.token,
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
    })),
    created_at: dispute.createdAt.toISOString(),
    updated_at: dispute.updatedAt.toISOString(),
    resolved_at: dispute.resolvedAt?.toISOString() ?? null,
  };
}

export function disputeEnvelope(dispute: DisputeRecord) {
  return { success: true as const, result: 0 as const, status: dispute.status, dispute: presentDispute(dispute) };
}
