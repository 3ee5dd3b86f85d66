// The order of the document: where a merchant starts (a payment, the sandbox's cards, what follows a payment), then
// the core banking API from its sign-in, the admin API, and the gateways' callbacks. Swagger UI shows the tags in
// this order and each tag's operations in the order of `paths`; "Try it out" in that order works on the demo seed.

import { objectAt, type JsonObject as Json } from './json-path.ts';
import { isJsonObject, isOneOf } from './type-guards.ts';

const TAG_ORDER: readonly { name: string; description: string }[] = [
  { name: 'payments', description: 'Take a payment: hosted (a checkout page) or Host-to-Host (card data in the request), then read it or act on it.' },
  { name: 'sandbox', description: 'The sandbox test cards: each card number drives one scenario of the sandbox gateway.' },
  { name: 'notifications', description: "What was sent to a payment's callbackUrl, and sending it again." },
  { name: 'refunds', description: 'Give back all or part of an approved payment.' },
  { name: 'disputes', description: 'Dispute a payment with evidence; an operator resolves it.' },
  { name: 'balance', description: "The merchant's balance per currency: available and on hold." },
  { name: 'payouts', description: 'Send money from the available balance to a card, SBP or a bank account.' },
  { name: 'exports', description: 'Payments, payouts, refunds and ledger entries of a period as CSV.' },
  { name: 'core banking: sign-in', description: 'Sign in with a login, a password and a code; the session-token header of the other core banking operations.' },
  { name: 'core banking: wallets', description: "The signed-in person's wallets." },
  { name: 'core banking: money charges', description: 'Ask another person for money, and pay, decline or cancel such a request.' },
  { name: 'core banking: bank accounts', description: 'Bank accounts of the signed-in person.' },
  { name: 'core banking: profiles', description: 'The profile and its files.' },
  { name: 'core banking: bank cards', description: 'Cards issued to bank accounts, for internal services (app-token).' },
  { name: 'core banking: transfers', description: 'Transfers into a profile, for internal services (app-token).' },
  { name: 'admin: merchants', description: 'Merchants and their keys.' },
  { name: 'admin: gateways', description: "A merchant's gateways and their routing." },
  { name: 'admin: commissions', description: "A merchant's commission terms." },
  { name: 'admin: ledger', description: 'Check that the ledger balances.' },
  { name: 'admin: disputes', description: 'Review and resolve disputes.' },
  { name: 'admin: conflicts', description: 'Payments whose gateway and Payrail disagree.' },
  { name: 'admin: reconciliation', description: "A provider's settlement file against Payrail's payments." },
  { name: 'admin: exports', description: 'The CSV exports across merchants.' },
  { name: 'admin: payment stats', description: "The merchant dashboard's daily payment aggregates." },
  { name: 'admin: core banking profiles', description: 'People, business accounts and the messages sent to them.' },
  { name: 'admin: core banking app tokens', description: 'Tokens of internal services.' },
  { name: 'admin: bank accounts', description: 'Review bank accounts.' },
  { name: 'admin: operators', description: 'Named operator accounts of the console at /ops (password and TOTP).' },
  { name: 'admin: audit', description: 'The append-only audit log: who changed what, when, from where.' },
  { name: 'gateways', description: "Gateways' callbacks to Payrail (a provider's JWT): not for merchants." },
];

// Within its tag, a path that ends a session comes last: what follows it in "Try it out" would need a new sign-in.
const LAST_IN_TAG = new Set(['/api/v1/auth/logout', '/api/v1/auth/logout_all']);
// In a path, creating comes before reading: `POST /api/v1/payments` is where a merchant starts.
const OPERATION_KEYS = ['post', 'get', 'put', 'patch', 'delete'] as const;

function tagRankOf(pathItem: Json): number {
  const ranks = OPERATION_KEYS.flatMap((method) => {
    const tag = firstTagOf(objectAt(pathItem, method));
    return tag === undefined ? [] : [TAG_ORDER.findIndex((entry) => entry.name === tag)];
  }).map((rank) => (rank === -1 ? TAG_ORDER.length : rank));
  return ranks.length === 0 ? TAG_ORDER.length : Math.min(...ranks);
}

function withOperationsInOrder(item: Json): Json {
  const operations = OPERATION_KEYS.filter((method) => item[method] !== undefined).map((method) => [method, item[method]]);
  const others = Object.entries(item).filter(([key]) => !isOneOf(OPERATION_KEYS, key));
  return Object.fromEntries([...others, ...operations]);
}

function pathItemsOf(document: Json): [string, Json][] {
  return Object.entries(objectAt(document, 'paths') ?? {}).flatMap(([path, item]): [string, Json][] => (isJsonObject(item) ? [[path, item]] : []));
}

function firstTagOf(operation: Json | undefined): string | undefined {
  const tags = operation?.['tags'];
  return Array.isArray(tags) && typeof tags[0] === 'string' ? tags[0] : undefined;
}

export function orderOperations(document: Json): void {
  const entries = pathItemsOf(document);
  const ranked = entries.map(([path, item], index) => ({ path, item, rank: tagRankOf(item) * 2 + (LAST_IN_TAG.has(path) ? 1 : 0), index }));
  ranked.sort((left, right) => left.rank - right.rank || left.index - right.index);
  document['paths'] = Object.fromEntries(ranked.map(({ path, item }) => [path, withOperationsInOrder(item)]));
  document['tags'] = TAG_ORDER.map((entry) => ({ ...entry }));
}

// The operations in the order Swagger UI lists them: by tag, then by path.
export function operationsInOrder(document: Json): { path: string; method: string; operation: Json }[] {
  const found: { path: string; method: string; operation: Json; rank: number; index: number }[] = [];
  let index = 0;
  for (const [path, item] of pathItemsOf(document)) {
    for (const method of OPERATION_KEYS) {
      const operation = objectAt(item, method);
      if (operation === undefined) continue;
      const tag = firstTagOf(operation);
      const rank = TAG_ORDER.findIndex((entry) => entry.name === tag);
      found.push({ path, method, operation, rank: rank === -1 ? TAG_ORDER.length : rank, index: index++ });
    }
  }
  found.sort((left, right) => left.rank - right.rank || left.index - right.index);
  return found.map(({ path, method, operation }) => ({ path, method, operation }));
}
