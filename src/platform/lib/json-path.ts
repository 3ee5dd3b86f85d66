import { isJsonObject } from './type-guards.ts';

// Reading a parsed JSON document (the OpenAPI document, an answer of the admin API) without casts: each step is
// checked, and a value of another shape reads as absent.

export type JsonObject = Record<string, unknown>;

/** The object found by following `path` from `value`; undefined when a step is missing or not an object. */
export function objectAt(value: unknown, ...path: readonly string[]): JsonObject | undefined {
  let current = value;
  for (const key of path) {
    if (!isJsonObject(current)) return undefined;
    current = current[key];
  }
  return isJsonObject(current) ? current : undefined;
}

/** The objects of an array (anything else in it skipped); none when `value` is not an array. */
export function objectsIn(value: unknown): JsonObject[] {
  return Array.isArray(value) ? value.filter(isJsonObject) : [];
}

/** The text at `key` of an object, if it is text. */
export function textAt(value: unknown, key: string): string | undefined {
  const found = isJsonObject(value) ? value[key] : undefined;
  return typeof found === 'string' ? found : undefined;
}
