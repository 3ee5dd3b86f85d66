import Type, { type TLiteral, type TSchemaOptions, type TUnion } from 'typebox';

// The field shapes every adapter request is made of (spec 2.8 and section 4), one definition each, so that an
// adapter's own schemas can be assembled from the same pieces as the contract's.

export const TOKEN_LENGTH_MAX = 256;
export const KEY_LENGTH_MAX = 1024;
export const URL_LENGTH_MAX = 2048;
const TEXT_LENGTH_MAX = 1024;
export const AMOUNT_MINOR_MAX = Number.MAX_SAFE_INTEGER;
// http(s) only: a javascript: or data: URL must never reach a customer's browser or a callback sender.
export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#\\s]+[^\\s]*$';
// 12..19 digits, spaces allowed between them.
export const PAN_PATTERN = '^\\s*(?:[0-9]\\s*){12,19}$';
export const CURRENCY_PATTERN = '^[A-Z]{3}$';
export const EXPIRES_PATTERN = '^(?:0[1-9]|1[0-2])/[0-9]{2}$';

export const tokenField = (description: string) => Type.String({ minLength: 1, maxLength: TOKEN_LENGTH_MAX, description });
export const httpUrlField = (description: string) => Type.String({ maxLength: URL_LENGTH_MAX, pattern: HTTP_URL_PATTERN, description });
export const amountMinorField = (description: string) => Type.Integer({ minimum: 1, maximum: AMOUNT_MINOR_MAX, description });
export const textField = (description: string) => Type.String({ maxLength: TEXT_LENGTH_MAX, description });
export const currencyField = () => Type.String({ pattern: CURRENCY_PATTERN, description: 'ISO 4217 alphabetic code' });
export const panField = () => Type.String({ pattern: PAN_PATTERN, description: 'card number, 12..19 digits, spaces allowed' });
export const merchantKeyField = () =>
  Type.String({ minLength: 1, maxLength: KEY_LENGTH_MAX, description: "the merchant's private key: returned only AES-encrypted, in a callback's `secure`" });

// A union of string literals from a list of them, typed member by member (Type.Union over a mapped array would type
// its value as never): the JSON Schema is the same anyOf of one-value enums.
export function literalUnion<const Values extends readonly [string, ...string[]]>(
  values: Values,
  options: TSchemaOptions = {},
): TUnion<{ -readonly [Index in keyof Values]: TLiteral<Values[Index]> }> {
  const literals = values.map((value) => Type.Literal(value));
  return Type.Union(literals, options) as TUnion<{ -readonly [Index in keyof Values]: TLiteral<Values[Index]> }>;
}
