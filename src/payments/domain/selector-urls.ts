// The provider-selection page of spec 2.2 (selectorUrl) and the per-gateway links it shows, on Payrail's origin.

export function selectorUrl(publicUrl: string, payment: { token: string; locale: string }): string {
  return `${publicUrl}/checkout/${payment.token}/select?locale=${payment.locale}`;
}

// spec 2.2: one entry of processingUrl when several providers are offered. Opening it records the customer's
// choice of that gateway and leads on to the payment page.
export function providerCheckoutUrl(publicUrl: string, payment: { token: string; locale: string }, alias: string): string {
  return `${publicUrl}${providerCheckoutPath(payment.token, alias, payment.locale)}`;
}

export function providerCheckoutPath(token: string, alias: string, locale: string): string {
  return `/checkout/${token}/${encodeURIComponent(alias)}?locale=${encodeURIComponent(locale)}`;
}

// The checkout pages' own segments after /checkout/<token>/: a gateway alias equal to one would be shadowed by
// that page, so no gateway may take one of these names.
export const CHECKOUT_RESERVED_SEGMENTS = [
  'select',
  'via',
  'confirm',
  'return',
  'status',
  'step',
  'secure_code',
  'resend_otp',
  'next_step',
  'assets',
  'json',
] as const;
