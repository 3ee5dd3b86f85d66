import type { Static, TSchema } from 'typebox';
import { Compile } from 'typebox/compile';

// A JSON column's value checked against the schema that types it, before a store writes it. Requests are validated
// long before they reach a store, so a value that fails here is a bug of the caller: it stops with an error instead
// of landing in a row that every later reader trusts.
class JsonColumnError extends Error {
  override name = 'JsonColumnError';
}

export type JsonColumnCheck = (value: unknown) => void;

// For a value that arrives untyped (an adapter's answer, a log item): the value back, typed as its column holds it.
export function jsonColumnValue<const Schema extends TSchema>(column: string, schema: Schema): (value: unknown) => Static<Schema> {
  const validator = Compile(schema);
  return (value) => {
    if (validator.Check(value)) return value;
    const [first] = validator.Errors(value);
    throw new JsonColumnError(`${column} refused: ${first ? `${first.instancePath || '/'} ${first.message}` : 'does not match its schema'}`);
  };
}

// For a nullable column written with a typed value: null (and an absent value) needs no check.
export function jsonColumnCheck(column: string, schema: TSchema): JsonColumnCheck {
  const checked = jsonColumnValue(column, schema);
  return (value) => {
    if (value !== null && value !== undefined) checked(value);
  };
}
