// Which key names hold secrets or card data, wherever data from outside is logged, stored or shown: an adapter's
// interaction logs (redact.ts), and Payrail's payment logs, its own log lines and gateway settings listed to
// operators. One list for both sides.

// Names are compared as keyNameOf gives them: lowercased, everything but letters and digits dropped, so
// "Card-Number", "card_number" and "cardNumber" are one name.
export const CARD_SECURITY_CODE_NAMES: ReadonlySet<string> = new Set([
  'cvv',
  'cvc',
  'cvv2',
  'cvc2',
  'cvn',
  'csc',
  'securitycode',
  'cardsecuritycode',
  'cardcvv',
  'cardcvc',
]);
export const CARD_NUMBER_NAMES: ReadonlySet<string> = new Set(['pan', 'cardnumber', 'cardno', 'cardnum']);

// Provider settings are free-form (spec 2.10), so a fixed list of secret names cannot be enough: a name that says it
// is a secret is one, however it is spelled.
const SECRET_NAMES: ReadonlySet<string> = new Set([
  'assets', // certificate bundles may carry their private key
  'secure', // the callback's encrypted merchant key
  'authorization',
  'proxyauthorization',
  'cookie',
  'setcookie',
  'confirmationcode',
  'pin',
  'smtpurl',
]);
const SECRET_NAME_PARTS = [
  'secret',
  'password',
  'passwd',
  'passphrase',
  'private',
  'credential',
  'salt',
  'token', // webhook_token, access_token, …, but not the identifiers below
  'auth', // basic_auth, auth_header, …, but not the outcomes below
  'key', // api_key, sign_key, webhook_key, …, but not a public key (below); last, so the other parts win
];
const PUBLIC_NAME_PARTS = ['public', 'publishable'];
// Tokens that identify rather than authenticate: Payrail's payment, refund and card tokens, the provider's own id.
const IDENTIFYING_TOKENS: ReadonlySet<string> = new Set([
  'token',
  'tokens',
  'paymenttoken',
  'refundtoken',
  'payouttoken',
  'gatewaytoken',
  'recurringgatewaytoken',
  'cardtokenfrom',
  'bankcardtokens',
]);

// What an authorization or authentication ended with: worth reading in a log, not a credential.
const AUTH_OUTCOMES: ReadonlySet<string> = new Set([
  'authcode',
  'authorizationcode',
  'authstatus',
  'authorizationstatus',
  'authenticationstatus',
  'authorized',
  'authenticated',
]);

// Worked out once per name (the hot path redacts every key of every log entry); bounded, and like keyNames below
// a name holding a digit is never kept.
const SECRET_NAMES_KEPT_MAX = 2000;
const secretByName = new Map<string, boolean>();

export function isSecretName(name: string): boolean {
  const known = secretByName.get(name);
  if (known !== undefined) return known;
  const secret = secretByRule(name);
  if (secretByName.size < SECRET_NAMES_KEPT_MAX && !/\d/.test(name)) secretByName.set(name, secret);
  return secret;
}

function secretByRule(name: string): boolean {
  if (SECRET_NAMES.has(name)) return true;
  const secretPart = SECRET_NAME_PARTS.find((part) => name.includes(part));
  if (secretPart === undefined) return false;
  if (secretPart === 'token') return !IDENTIFYING_TOKENS.has(name);
  if (secretPart === 'auth') return !AUTH_OUTCOMES.has(name);
  // "assets_public_key", "publishable_key": a public key is not a secret ("public_key_secret" still is one).
  return secretPart !== 'key' || !PUBLIC_NAME_PARTS.some((part) => name.includes(part));
}

// Payloads repeat their keys, so each name is worked out once. Bounded, and a key holding a digit is never kept:
// card data must not linger in a cache.
const KEY_NAMES_KEPT_MAX = 2000;
const keyNames = new Map<string, string>();

export function keyNameOf(key: string): string {
  const known = keyNames.get(key);
  if (known !== undefined) return known;
  const name = key.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (keyNames.size < KEY_NAMES_KEPT_MAX && !/\d/.test(key)) keyNames.set(key, name);
  return name;
}
