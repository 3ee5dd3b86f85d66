import { preferredPageLocale } from '../../../platform/lib/accept-language.ts';
import { normalizeLocale, type CheckoutLocale } from './locales.ts';

// The page's language: ?locale= when the link has one, else the best language of Accept-Language we speak
// (q-values honoured; zh-*, ja or jp, en-*), else the payment's locale, else English.
export function requestLocale(queryLocale: string | undefined, acceptLanguage: string | undefined, paymentLocale?: string): CheckoutLocale {
  if (queryLocale !== undefined && queryLocale.trim() !== '') return normalizeLocale(queryLocale);
  return acceptedLocale(acceptLanguage) ?? normalizeLocale(paymentLocale);
}

// The best language of Accept-Language we speak, or null (lib/accept-language.ts).
export function acceptedLocale(header: string | undefined): CheckoutLocale | null {
  return preferredPageLocale(header);
}
