import type { BankCardType } from '../domain/core-banking-values.ts';

// A card-issuing provider: it creates cards on a bank account, holds their full data and sets their PIN. Payrail
// keeps only what may rest in its database (mask, expiry, the issuer's id); full card data goes from the issuer
// to the cardholder's browser through the hosted card pages, never through the API caller. The built-in sandbox
// issuer (sandbox-card-issuer.ts) answers sandbox keys; a real issuer plugs in here for production keys.

export interface CardIssueRequest {
  cardType: BankCardType;
  holderFirstName: string;
  holderLastName: string;
  phone: string | null;
  holderPhone: string | null;
  countryCode: string | null;
  delivery: Readonly<Record<string, string>> | null;
}

export type CardIssueOutcome =
  | { outcome: 'issued'; outerId: string; panMask: string; expMonth: number; expYear: number }
  | { outcome: 'rejected'; reason: string };

// What Payrail knows of an issued card: a real issuer finds the card by outerId; the sandbox issuer, which keeps
// nothing, derives the number and CVV from outerId and repeats the rest.
export interface IssuedCardReference {
  outerId: string;
  expMonth: number;
  expYear: number;
  holderName: string;
}

export interface FullCardData {
  pan: string; // digits only
  expMonth: number;
  expYear: number;
  cvv: string;
  holder: string;
}

export interface CardIssuer {
  readonly name: string; // stored in bank_cards.issuer
  issue(request: CardIssueRequest): Promise<CardIssueOutcome>;
  cardData(card: IssuedCardReference): Promise<FullCardData>;
  setPin(outerId: string, pin: string): Promise<void>;
}
