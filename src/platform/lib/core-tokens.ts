import { randomBase64Url, sha256Hex } from './crypto.ts';

// Bearer tokens of the core banking API. Each is 32 random bytes behind a prefix that says what it is, so a
// token of the wrong kind is refused before any lookup; the database keeps only its SHA-256 (256 random bits
// cannot be guessed back from a digest, unlike a password or a card number).
const TOKEN_PREFIXES = { session: 'ses_', preSession: 'pre_', appToken: 'app_' } as const;
export type TokenKind = keyof typeof TOKEN_PREFIXES;

const TOKEN_BYTES = 32;
const TOKEN_BODY = /^[A-Za-z0-9_-]{43}$/;

export function newToken(kind: TokenKind): string {
  return `${TOKEN_PREFIXES[kind]}${randomBase64Url(TOKEN_BYTES)}`;
}

export function looksLikeToken(kind: TokenKind, text: string): boolean {
  const prefix = TOKEN_PREFIXES[kind];
  return text.startsWith(prefix) && TOKEN_BODY.test(text.slice(prefix.length));
}

export function tokenDigest(token: string): string {
  return sha256Hex(token);
}

// What may be shown of a token after it was created: its prefix and first characters.
export function tokenDisplayPrefix(token: string): string {
  return token.slice(0, 10);
}
