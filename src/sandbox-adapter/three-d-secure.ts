import type { RedirectRequest } from '@payrail/adapter-kit';
import { behaviourOf, isOnAllowedOrigin, type SandboxRuntime } from './runtime.ts';
import { DECLINE_REASONS } from './test-cards.ts';
import { renderChallengePage, renderCompletedPage, threeDSecureCsp } from './three-d-secure-page.ts';
import type { ThreeDSecureLocale } from './three-d-secure-texts.ts';
import { findByGatewayToken, finishAuthentication, type SandboxTransaction } from './transactions-repo.ts';

export type ThreeDSecureOutcome = 'success' | 'failure';

function threeDSecurePageUrl(runtime: SandboxRuntime, transaction: SandboxTransaction): string {
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
export async function threeDSecureTransaction(runtime: SandboxRuntime, transactionId: string): Promise<SandboxTransaction | null> {
  const transaction = await findByGatewayToken(runtime.db, transactionId);
  if (transaction === null || behaviourOf(transaction)?.firstAnswer !== 'three_d_secure') return null;
  return transaction;
}

// Where the page sends the customer when authentication is over: the TermUrl recorded at /pay, which /pay only
// accepted on Payrail's public origin (checked again here), never a URL from the form.
export function termUrlOf(runtime: SandboxRuntime, transaction: SandboxTransaction): string | null {
  const url = transaction.processingUrl;
  return url !== null && isOnAllowedOrigin(runtime, url) ? url : null;
}

export function threeDSecurePage(runtime: SandboxRuntime, transaction: SandboxTransaction, locale: ThreeDSecureLocale): { html: string; csp: string } {
  const termUrl = termUrlOf(runtime, transaction);
  const csp = threeDSecureCsp(termUrl);
  if (transaction.status !== 'pending') return { html: renderCompletedPage(locale, transaction.status, termUrl), csp };
  const html = renderChallengePage({
    locale,
    completeUrl: `${threeDSecurePageUrl(runtime, transaction)}/complete`,
    amountMinor: transaction.amountMinor,
    currency: transaction.currency,
    panMasked: transaction.panMasked,
    transactionId: transaction.gatewayToken,
  });
  return { html, csp };
}

// spec 1: a failed authentication always declines, whatever the card; a success gives the card's own outcome.
// A second completion (double click, back button, another process) changes nothing: the first one decided.
export async function completeThreeDSecure(runtime: SandboxRuntime, transaction: SandboxTransaction, outcome: ThreeDSecureOutcome): Promise<void> {
  const behaviour = behaviourOf(transaction);
  if (behaviour === null || transaction.status !== 'pending') return;
  const [status, declineReason] =
    outcome === 'failure' ? ['declined' as const, DECLINE_REASONS.threeDSecureFailed] : [behaviour.finalStatus, behaviour.declineReason];
  const finished = await finishAuthentication(runtime.db, transaction.gatewayToken, status, declineReason);
  if (finished?.callbackDueAt !== null && finished !== null) runtime.kickCallbacks();
}
