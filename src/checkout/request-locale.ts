import { CHECKOUT_LOCALES, normalizeLocale, type CheckoutLocale } from './locales.ts';

const LANGUAGE_RANGES_MAX = 20; // a header longer than this is a client's own business: the first ranges decide
const Q_VALUE = /^q=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/i;

// The page's language: ?locale= when the link has one, else the best language of Accept-Language we speak
// (q-values honoured; zh-*, ja or jp, en-*), else the payment's locale, else English.
export function requestLocale(queryLocale: string | undefined, acceptLanguage: string | undefined, paymentLocale?: string): CheckoutLocale {
  if (queryLocale !== undefined && queryLocale.trim() !== '') return normalizeLocale(queryLocale);
  return acceptedLocale(acceptLanguage) ?? normalizeLocale(paymentLocale);
}

// RFC 9110 12.5.4: ranges in the order of their weight (the header's order among equals); q=0 means "not this".
export function acceptedLocale(header: string | undefined): CheckoutLocale | null {
  if (header === undefined) return null;
  const ranges = header
    .split(',')
    .slice(0, LANGUAGE_RANGES_MAX)
    .map((part, index) => {
      const [tag = '', ...parameters] = part.split(';').map((piece) => piece.trim());
      const qParameter = parameters.find((parameter) => /^q=/i.test(parameter));
      const weight = qParameter === undefined ? 1 : Number(Q_VALUE.exec(qParameter)?.[1] ?? 0);
      return { tag: tag.toLowerCase(), weight, index };
    })
    .filter((range) => range.weight > 0 && range.tag !== '')
    .sort((a, b) => b.weight - a.weight || a.index - b.index);
  for (const range of ranges) {
    const language = range.tag.split(/[-_]/)[0] ?? '';
    const locale = normalizeLocale(language);
    // normalizeLocale answers en for anything it does not know: only a real en range may pick English.
    if (locale !== 'en' || language === 'en') return (CHECKOUT_LOCALES as readonly string[]).includes(locale) ? locale : null;
  }
  return null;
}
