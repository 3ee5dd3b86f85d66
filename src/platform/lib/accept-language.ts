// The page languages Payrail speaks (spec 2.1: en, zh, jp; "jp" is Payrail's code for Japanese, not a language
// tag) and the one a browser's Accept-Language prefers. The hosted checkout and the sandbox 3-D Secure page both
// read it.

export type PageLocale = 'en' | 'zh' | 'jp';

export const PAGE_LOCALE_BY_LANGUAGE: ReadonlyMap<string, PageLocale> = new Map([
  ['en', 'en'],
  ['zh', 'zh'],
  ['jp', 'jp'],
  ['ja', 'jp'],
]);

const LANGUAGE_RANGES_MAX = 20; // a header longer than this is a client's own business: the first ranges decide
const Q_VALUE = /^q=(0(?:\.[0-9]{0,3})?|1(?:\.0{0,3})?)$/i;

// RFC 9110 12.5.4: ranges in the order of their weight (the header's order among equals); q=0 means "not this".
// Null when it names no language we speak.
export function preferredPageLocale(header: string | undefined): PageLocale | null {
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
    const locale = PAGE_LOCALE_BY_LANGUAGE.get(range.tag.split(/[-_]/)[0] ?? '');
    if (locale !== undefined) return locale;
  }
  return null;
}
