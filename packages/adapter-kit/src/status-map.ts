import type { AdapterStatus } from './response-schema.ts';

// Anything the provider says that the table does not name maps to pending, never to approved: only an explicit
// answer is final (a later /status or callback settles it).
export type StatusTable = Readonly<Record<string, AdapterStatus>>;

export function mapStatus(providerStatus: unknown, table: StatusTable): AdapterStatus {
  if (typeof providerStatus !== 'string' && typeof providerStatus !== 'number') return 'pending';
  const text = String(providerStatus);
  // Own keys only: "constructor" or "__proto__" from a provider must not reach Object.prototype.
  if (Object.hasOwn(table, text)) return table[text]!;
  const folded = text.trim().toLowerCase();
  for (const [key, status] of Object.entries(table)) {
    if (key.trim().toLowerCase() === folded) return status;
  }
  return 'pending';
}
