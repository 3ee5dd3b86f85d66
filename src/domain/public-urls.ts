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
