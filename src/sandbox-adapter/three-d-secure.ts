import type { RedirectRequest } from '../contract/adapter-contract.ts';
import { behaviourOf, finalizeTransaction, type SandboxRuntime } from './runtime.ts';
import type { SandboxTransaction } from './store.ts';
import { DECLINE_REASONS } from './test-cards.ts';
import { renderChallengePage, renderCompletedPage, threeDSecureCsp } from './three-d-secure-page.ts';

export type ThreeDSecureOutcome = 'success' | 'failure';

export function threeDSecurePageUrl(runtime: SandboxRuntime, transaction: SandboxTransaction): string {
  return `${runtime.publicBaseUrl}/3ds/${encodeURIComponent(transaction.gatewayToken)}`;
}

// The classic ACS hand-off: the business service posts PaReq / MD / TermUrl to the page (type post).
export function threeDSecureRedirectOf(runtime: SandboxRuntime, transaction: SandboxTransaction): RedirectRequest {
  const paReq = Buffer.from(
    JSON.stringify({ transaction_id: transaction.gatewayToken, amount: transaction.amountMinor, currency: transaction.currency }),
    'utf8',
  ).toString('base64');
  return {
    url: threeDSecurePageUrl(runtime, transaction),
    type: 'post',
    params: { PaReq: paReq, MD: transaction.gatewayToken, TermUrl: transaction.processingUrl ?? '' },
  };
}

// The transaction behind a 3-D Secure URL, or null when there is none (unknown, or a card without 3-D Secure).
export function threeDSecureTransaction(runtime: SandboxRuntime, transactionId: string): SandboxTransaction | null {
  const transaction = runtime.store.byGatewayToken(transactionId);
  if (transaction === null || behaviourOf(transaction)?.firstAnswer !== 'three_d_secure') return null;
  return transaction;
}

export function threeDSecurePage(runtime: SandboxRuntime, transaction: SandboxTransaction): { html: string; csp: string } {
  const csp = threeDSecureCsp(transaction.processingUrl);
  if (transaction.status !== 'pending') return { html: renderCompletedPage(transaction.status, transaction.processingUrl), csp };
  const html = renderChallengePage({
    completeUrl: `${threeDSecurePageUrl(runtime, transaction)}/complete`,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
    panMasked: transaction.panMasked,
    transactionId: transaction.gatewayToken,
  });
  return { html, csp };
}

// spec 1: a failed authentication always declines, whatever the card; a success gives the card's own outcome.
// A second completion (double click, back button) changes nothing: the first one decided.
export function completeThreeDSecure(runtime: SandboxRuntime, transaction: SandboxTransaction, outcome: ThreeDSecureOutcome): void {
  const behaviour = behaviourOf(transaction);
  if (behaviour === null || transaction.status !== 'pending') return;
  const event = { url: `${threeDSecurePageUrl(runtime, transaction)}/complete`, body: { outcome } };
  if (outcome === 'failure') {
    finalizeTransaction(runtime, transaction, 'declined', DECLINE_REASONS.threeDSecureFailed, event);
    return;
  }
  finalizeTransaction(runtime, transaction, behaviour.finalStatus, behaviour.declineReason, event);
}
