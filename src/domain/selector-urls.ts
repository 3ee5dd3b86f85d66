// The provider-selection page of spec 2.2 (selectorUrl) and the per-gateway links it shows, on Payrail's origin.

export function selectorUrl(publicUrl: string, payment: { token: string; locale: string }): string {
  return `${publicUrl}/checkout/${payment.token}/select?locale=${payment.locale}`;
}

// Opening it records the customer's choice of gateway and leads on to the payment page.
export function providerChoicePath(token: string, alias: string, locale: string): string {
  return `/checkout/${token}/via/${encodeURIComponent(alias)}?locale=${encodeURIComponent(locale)}`;
}
