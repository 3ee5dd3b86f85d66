// Narrowing without casts: what a value read from JSON, a form, a thrown error or a text column is.

/** A JSON object: not null, not an array. */
export function isJsonObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** One of a list of literal values (a status, a kind, a field name). */
export function isOneOf<const T>(values: readonly T[], value: unknown): value is T {
  return values.some((candidate) => candidate === value);
}

/** The code a system or library error carries (ENOTFOUND, FST_…), if any. */
export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('code' in error)) return undefined;
  return typeof error.code === 'string' ? error.code : undefined;
}

/** An error's message, whatever was thrown. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
