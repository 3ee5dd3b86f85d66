import Type, { type Static, type TNumberOptions } from 'typebox';

// The shared primitives of every module's schemas and the limits they use, each named once. A helper returns a
// fresh schema whose keys come in the order the routes always wrote them, so the OpenAPI document is unchanged.

// A PostgreSQL bigint reaches JavaScript as a number, exact only up to 2^53 − 1: ids and minor units stay below it.
export const ID_MAX = Number.MAX_SAFE_INTEGER;
export const AMOUNT_MINOR_MAX = Number.MAX_SAFE_INTEGER;
// A payout's amount: 10^15 minor units, far above any real payout and still exact.
export const PAYOUT_AMOUNT_MINOR_MAX = 1_000_000_000_000_000;

// Texts every module bounds the same way.
export const EMAIL_LENGTH_MAX = 254; // RFC 5321: the longest address a mail path carries
export const URL_LENGTH_MAX = 2048;
export const CURSOR_LENGTH_MAX = 128; // a list's opaque nextCursor
export { PAN_DIGITS_MAX } from '@payrail/adapter-kit'; // ISO/IEC 7812, the adapter contract's

// Offset pages of the admin lists: a page number past this finds nothing anyway. (Export a limit when a second
// module needs it by name.)
const PAGE_MAX = 1_000_000;
const PER_PAGE_MAX = 500;

/** A row id: a positive bigint. */
export const Id = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: ID_MAX, ...options });
export type Id = Static<ReturnType<typeof Id>>;

/** A positive amount of minor units (100 = 1.00 USD). */
export const AmountMinor = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: AMOUNT_MINOR_MAX, ...options });
export type AmountMinor = Static<ReturnType<typeof AmountMinor>>;

/** An offset page number, 1 by default. */
export const Page = (options: TNumberOptions = {}) => Type.Integer({ minimum: 1, maximum: PAGE_MAX, default: 1, ...options });
export type Page = Static<ReturnType<typeof Page>>;

/** Rows a page holds: at most PER_PAGE_MAX unless the list allows fewer (options.maximum). */
export const PerPage = (defaultPerPage: number, options: TNumberOptions = {}) =>
  Type.Integer({ minimum: 1, maximum: PER_PAGE_MAX, default: defaultPerPage, ...options });
export type PerPage = Static<ReturnType<typeof PerPage>>;
