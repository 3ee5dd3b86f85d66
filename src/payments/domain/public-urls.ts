// The URLs Payrail gives out for a payment, all on its public origin (PAYRAIL_PUBLIC_URL).

export function checkoutUrl(publicUrl: string, payment: { token: string; locale: string }): string {
  return `${publicUrl}/checkout/${payment.token}?locale=${payment.locale}`;
}

// Where the adapter sends the customer back after its own pages (3-D Secure TermUrl).
export function checkoutReturnUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/checkout/${token}/return`;
}

export function providerCallbackUrl(publicUrl: string, token: string): string {
  return `${publicUrl}/callbacks/v2/gateway_callbacks/${token}`;
}

// A payout's processingUrl and selectorUrl (issue 19): a read-only status page, JSON for Accept: application/json.
// A payout has no customer step, so it has no page under /checkout/.
export function payoutStatusUrl(publicUrl: string, payout: { token: string; locale: string }): string {
  return `${publicUrl}${payoutStatusPath(payout.token, payout.locale)}`;
}

export function payoutStatusPath(token: string, locale: string): string {
  return `/payouts/${token}?locale=${encodeURIComponent(locale)}`;
}
