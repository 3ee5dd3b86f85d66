// Whether stored or shown data still holds a card: the PAN in any spelling, the CVV as a value or a token.

const SEPARATORS = /[\s.+-]/g;

// The stored text with every separator removed must not hold the PAN's digits.
export function leaksPan(value: unknown, pan: string): boolean {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.replace(SEPARATORS, '').includes(pan);
}

// The CVV as a whole string or a standalone token of one, anywhere (keys included).
export function leaksCvv(value: unknown, cvv: string): boolean {
  const token = new RegExp(`(?<![0-9A-Za-z*])${cvv}(?![0-9A-Za-z*])`);
  const visit = (item: unknown): boolean => {
    if (typeof item === 'string') return token.test(item);
    if (Array.isArray(item)) return item.some(visit);
    if (item !== null && typeof item === 'object') return Object.entries(item).some(([key, inner]) => token.test(key) || visit(inner));
    return false;
  };
  return visit(value);
}
