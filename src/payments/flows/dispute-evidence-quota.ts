import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import type { DbOrTx, Tx } from '../../platform/database.ts';
import { lockEvidenceQuota, sumEvidenceBytes } from '../store/disputes-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

// Evidence files take disk space that any key of a merchant could fill: each merchant has a quota per environment
// (PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES, PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES), for all its disputes together.

export interface EvidenceQuota {
  environment: MerchantScope['environment'];
  totalBytes: number;
  leftBytes: number;
}

export type EvidenceQuotaBytes = Record<MerchantScope['environment'], number>;

export async function evidenceQuotaOf(db: DbOrTx, scope: MerchantScope, quotaBytes: EvidenceQuotaBytes): Promise<EvidenceQuota> {
  const totalBytes = quotaBytes[scope.environment];
  const usedBytes = await sumEvidenceBytes(db, scope);
  return { environment: scope.environment, totalBytes, leftBytes: Math.max(0, totalBytes - usedBytes) };
}

// 413 with what is left, in the message and as quotaLeftBytes; field names the first document that did not fit.
export function evidenceQuotaExceeded(quota: EvidenceQuota, field: string): ApiError {
  const message =
    `the documents do not fit in the evidence quota: ${quota.leftBytes} of ${quota.totalBytes} bytes are left for this merchant's ` +
    `${quota.environment} disputes`;
  const item: ErrorItem & { quotaLeftBytes: number } = { code: 'evidence_quota_exceeded', field, message, quotaLeftBytes: quota.leftBytes };
  return new ApiError('evidence_quota_exceeded', 413, message, [item]);
}

// The final word, inside the transaction that stores the documents: uploads of one merchant's environment wait for
// each other here, so two of them cannot both take the same free space.
export async function reserveEvidenceSpace(tx: Tx, scope: MerchantScope, quotaBytes: EvidenceQuotaBytes, sizesBytes: readonly number[]): Promise<void> {
  if (sizesBytes.length === 0) return;
  await lockEvidenceQuota(tx, scope);
  const quota = await evidenceQuotaOf(tx, scope, quotaBytes);
  let neededBytes = 0;
  for (const [position, sizeBytes] of sizesBytes.entries()) {
    neededBytes += sizeBytes;
    if (neededBytes > quota.leftBytes) throw evidenceQuotaExceeded(quota, `document[${position}]`);
  }
}
