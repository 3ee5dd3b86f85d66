import { isFinal } from '../../domain/payment-status.ts';
import type { PaymentRow } from '../../store/payments-repo.ts';
import { validateOrigin } from './csp.ts';

const PENDING_BEFORE_PENDING_URL_MS = 20_000;

function withQuery(url: string, token: string, status: string): string {
  const target = new URL(url);
  target.searchParams.set('token', token);
  target.searchParams.set('status', status);
  return target.toString();
}

// spec 6.3: the customer ends at redirectSuccessUrl, redirectFailUrl or pendingUrl (token and status in the
// query); without them, at our own result page (null). An authorized two-step payment is done on the customer's
// side (the merchant captures it later), so it goes to the success URL; a cancelled one to the fail URL.
export function merchantDestination(payment: PaymentRow, now = Date.now()): string | null {
  const { status } = payment;
  if ((status === 'approved' || status === 'authorized') && payment.redirectSuccessUrl) return withQuery(payment.redirectSuccessUrl, payment.token, status);
  if ((status === 'declined' || status === 'expired' || status === 'cancelled') && payment.redirectFailUrl)
    return withQuery(payment.redirectFailUrl, payment.token, status);
  const waitedLong = now - payment.updatedAt.getTime() > PENDING_BEFORE_PENDING_URL_MS;
  if (status === 'pending' && payment.pendingUrl && waitedLong) return withQuery(payment.pendingUrl, payment.token, status);
  return null;
}

// Where a failed payment's page sends the customer back to: the fail URL when given (spec 6.3 redirects there
// before any page shows), else the merchant's site, the origin of its other URLs. Null: no merchant URL known.
export function shopUrl(payment: PaymentRow): string | null {
  if (payment.redirectFailUrl) return withQuery(payment.redirectFailUrl, payment.token, payment.status);
  for (const url of [payment.redirectSuccessUrl, payment.pendingUrl]) {
    if (url) return `${new URL(url).origin}/`;
  }
  return null;
}

export function isSettled(payment: PaymentRow, now = Date.now()): boolean {
  return isFinal(payment.status) || merchantDestination(payment, now) !== null;
}

// The origins a payment may end at. A page whose form posts to us names them in its CSP form-action: Chromium checks
// a form post's whole redirect chain against it, and the post's answer may be 303 → our page → 303 → the merchant.
export function destinationOrigins(payment: PaymentRow): string[] {
  const origins = [payment.redirectSuccessUrl, payment.redirectFailUrl, payment.pendingUrl].flatMap((url) => {
    if (url === null) return [];
    try {
      return [validateOrigin(new URL(url).origin)];
    } catch {
      return []; // checked at creation; an origin the policy cannot name only costs the direct redirect
    }
  });
  return [...new Set(origins)];
}
