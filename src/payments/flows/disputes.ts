import type { ReadStream } from 'node:fs';
import { disputabilityOf } from '../domain/dispute-status.ts';
import { disputeHeld } from '../../ledger/index.ts';
import { randomHex } from '../../platform/lib/crypto.ts';
import { DocumentMissingError, type DocumentStore } from '../../platform/lib/document-store.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { Db } from '../../platform/database.ts';
import {
  findDispute,
  findDisputeDocument,
  insertDispute,
  lockScopedPayment,
  sumCountedDisputesMinor,
  type DisputeDocumentRow,
  type DisputeRecord,
  type DisputeVisibility,
} from '../store/disputes-repo.ts';
import { InsufficientBalanceError, ledgerTransaction, postLedger } from '../../ledger/index.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { withKeptDocuments, type IncomingDocument } from './kept-documents.ts';
import { reserveEvidenceSpace, type EvidenceQuotaBytes } from './dispute-evidence-quota.ts';
import type { KeyCommit } from './idempotency-keys.ts';
import { queueNotification } from './notification-events.ts';

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;

export interface DisputeDeps {
  db: Db;
  documents: DocumentStore;
}

// An evidence file as the upload left it: staged under a temporary name, its type read from its content.
export type { IncomingDocument } from './kept-documents.ts';

export interface OpenDisputeRequest {
  paymentToken: string;
  description: string;
  amountMinor: number;
  documents: readonly IncomingDocument[];
  evidenceQuotaBytes: EvidenceQuotaBytes; // the merchant's quota per environment, all its disputes' documents together
  commitKey: KeyCommit | null; // the request's Idempotency-Key, committed with the dispute in its transaction
}

const paymentNotFound = () => new ApiError('not_found', 404, 'payment not found');
const disputeNotFound = () => new ApiError('not_found', 404, 'dispute not found');

// The merchant disputes part of an approved payment: in one transaction the dispute and its documents are stored,
// the disputed amount moves from available to hold (refused when it is not there), and the merchant is notified.
// The documents get their stored names first; whatever fails after that removes them again.
export async function openDispute(deps: DisputeDeps, scope: MerchantScope, request: OpenDisputeRequest): Promise<DisputeRecord> {
  if (!TOKEN_PATTERN.test(request.paymentToken)) throw paymentNotFound();
  try {
    return await openDisputeKeeping(deps, scope, request);
  } catch (error) {
    if (error instanceof InsufficientBalanceError) {
      throw new ApiError('insufficient_balance', 422, `the available balance is below the disputed ${error.neededMinor} ${error.currency}`);
    }
    throw error;
  }
}

function openDisputeKeeping(deps: DisputeDeps, scope: MerchantScope, request: OpenDisputeRequest): Promise<DisputeRecord> {
  return withKeptDocuments(deps.documents, request.documents, (documents) =>
    ledgerTransaction(deps.db, async (tx) => {
      // Another merchant's or environment's payment is indistinguishable from a missing one.
      const payment = await lockScopedPayment(tx, scope, request.paymentToken);
      if (!payment) throw paymentNotFound();
      const disputability = disputabilityOf(payment, await sumCountedDisputesMinor(tx, payment.id));
      if (!disputability.ok) throw new ApiError('invalid_state', 409, disputability.reason);
      if (request.amountMinor > disputability.disputableMinor) {
        const message = `at most ${disputability.disputableMinor} (captured, less refunds and other disputes) can still be disputed`;
        throw new ApiError('amount_exceeds_disputable', 422, message, [{ code: 'amount_exceeds_disputable', field: 'amount', message }]);
      }
      await reserveEvidenceSpace(
        tx,
        scope,
        request.evidenceQuotaBytes,
        documents.map((document) => document.sizeBytes),
      );
      const dispute = await insertDispute(
        tx,
        {
          token: randomHex(16),
          paymentId: payment.id,
          merchantId: scope.merchantId,
          environment: scope.environment,
          amountMinor: request.amountMinor,
          currency: payment.currency,
          description: request.description,
        },
        documents,
      );
      await queueNotification(tx, payment.id, { kind: 'dispute', disputeId: dispute.id });
      // last: it locks the merchant's balance rows until the commit, which goes with it when no key follows
      const refs = { paymentId: payment.id, disputeId: dispute.id };
      await postLedger(tx, scope, disputeHeld(dispute.amountMinor, dispute.currency), refs, { commit: !request.commitKey });
      await request.commitKey?.(tx, { kind: 'dispute', token: dispute.token });
      return { ...dispute, paymentToken: payment.token };
    }),
  );
}

export async function getDispute(db: Db, visibility: DisputeVisibility, token: string): Promise<DisputeRecord> {
  const dispute = TOKEN_PATTERN.test(token) ? await findDispute(db, visibility, token) : null;
  if (!dispute) throw disputeNotFound();
  return dispute;
}

export interface DocumentDownload {
  document: DisputeDocumentRow;
  stream: ReadStream;
  sizeBytes: number;
}

// One evidence file, only to whom may see its dispute.
export async function readDisputeDocument(deps: DisputeDeps, visibility: DisputeVisibility, token: string, documentId: number): Promise<DocumentDownload> {
  const document = TOKEN_PATTERN.test(token) ? await findDisputeDocument(deps.db, visibility, token, documentId) : null;
  if (!document) throw new ApiError('not_found', 404, 'document not found');
  try {
    const { stream, sizeBytes } = await deps.documents.read(document.storedName);
    return { document, stream, sizeBytes };
  } catch (error) {
    if (error instanceof DocumentMissingError) throw new ApiError('document_unavailable', 500, 'the document file is missing from the documents folder');
    throw error;
  }
}
