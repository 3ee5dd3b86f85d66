// An adapter exchange in flight (issue 18): while a request that may move a payment's money is with its adapter, the
// payment (or, for /refund, the refund) carries a marker with a lease. Status checks wait for the answer instead of
// racing it, and a second confirm, decline or cancel of the payment is refused instead of reaching the acquirer
// twice. The lease is the request's response_timeout plus a margin: the answer, a timeout or a crash (the lease
// lapses) ends it.

// What the marker says is in flight: the adapter method, and the automatic void (a decline_request with its own
// reason, workers/authorization-void.ts).
export const EXCHANGE_KINDS = ['pay', 'payout', 'confirm_request', 'decline_request', 'authorization_void'] as const;
export type ExchangeKind = (typeof EXCHANGE_KINDS)[number];

// A two-step exchange a crash left unanswered is sent again by the status checker: the contract answers a repeat of
// a done confirm_request or decline_request approved again, so the repeat settles it either way.
export const TWO_STEP_EXCHANGE_KINDS: readonly ExchangeKind[] = ['confirm_request', 'decline_request', 'authorization_void'];

// Beyond the response_timeout: the adapter client's own bookkeeping, and the answer's write after it.
export const EXCHANGE_LEASE_MARGIN_MS = 5_000;
// A check that came due during an exchange runs this long after its lease ends.
const EXCHANGE_DEFER_PAST_LEASE_MS = 1_000;
const FIRST_CHECK_PAST_TIMEOUT_MS = 1_000;

export interface ExchangeMarker {
  exchangeUntil: Date | null;
}

// responseTimeoutsS: one per request the exchange may make in turn (a routed /pay fails over along its gateways).
export function exchangeLeaseUntil(responseTimeoutsS: readonly number[], now: Date): Date {
  const timeoutsMs = responseTimeoutsS.reduce((sum, seconds) => sum + seconds * 1000, 0);
  return new Date(now.getTime() + timeoutsMs + EXCHANGE_LEASE_MARGIN_MS);
}

export function exchangeInFlight(marker: ExchangeMarker, now: Date): boolean {
  return marker.exchangeUntil !== null && marker.exchangeUntil.getTime() > now.getTime();
}

// spec 2.10 final_waiting_seconds is the delay before the first status check; it never comes before the request
// it checks could have answered: max(final_waiting_seconds, response_timeout) + 1 s after the request was sent.
export function firstStatusCheckAt(method: { finalWaitingS: number; responseTimeoutS: number }, sentAt: Date): Date {
  return new Date(sentAt.getTime() + Math.max(method.finalWaitingS, method.responseTimeoutS) * 1000 + FIRST_CHECK_PAST_TIMEOUT_MS);
}

export function deferredCheckAt(marker: { exchangeUntil: Date }): Date {
  return new Date(marker.exchangeUntil.getTime() + EXCHANGE_DEFER_PAST_LEASE_MS);
}
