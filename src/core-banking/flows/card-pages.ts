import { pinProblem, type PinProblem } from '../domain/bank-card-rules.ts';
import type { FullCardData } from '../gateways/card-issuer.ts';
import { verifyCardPageToken, type CardPageClaims } from '../../platform/lib/card-page-token.ts';
import { constantTimeEqual } from '../../platform/lib/crypto.ts';
import type { Db } from '../../platform/database.ts';
import { consumePageNonce, findCard, recordPinSet, type BankCardRow } from '../store/bank-cards-repo.ts';
import { issuerNamed } from './card-issuers.ts';

// The hosted card pages (/cards/<token>): a link works once. Showing card data uses it up; the PIN form may be
// shown again until a valid PIN is submitted, which uses it up before the issuer is asked. Only the cardholder's
// own step reveals card data (a browser navigating to the link, or the button of the page that asks first): a
// HEAD, a link preview or a scanner sees what the link would show and uses up nothing.

export type CardPageView =
  | { view: 'card_data'; card: FullCardData }
  | { view: 'reveal_prompt'; panMask: string } // a card-data link still unused: a button reveals it
  | { view: 'pin_form'; panMask: string; problem: PinProblem | null }
  | { view: 'pin_set'; panMask: string }
  | { view: 'gone'; reason: 'invalid' | 'expired' | 'used' }
  | { view: 'issuer_error' };

interface Deps {
  db: Db;
  masterKey: Buffer;
}

type LiveLink = { claims: CardPageClaims; card: BankCardRow & { outerId: string; panMask: string; expMonth: number; expYear: number } };

async function liveLink(deps: Deps, token: string): Promise<LiveLink | Extract<CardPageView, { view: 'gone' }>> {
  const check = await verifyCardPageToken(deps.masterKey, token);
  if (!check.valid) return { view: 'gone', reason: check.reason };
  const card = await findCard(deps.db, check.claims.cardId);
  if (card === null || card.outerId === null || card.panMask === null || card.expMonth === null || card.expYear === null)
    return { view: 'gone', reason: 'invalid' };
  if (card.status !== 'active' || card.pageNonce === null || !constantTimeEqual(card.pageNonce, check.claims.nonce)) return { view: 'gone', reason: 'used' };
  return { claims: check.claims, card: { ...card, outerId: card.outerId, panMask: card.panMask, expMonth: card.expMonth, expYear: card.expYear } };
}

// What a link would show, using up nothing: the PIN form, or for card data a page that asks before revealing.
export async function previewCardPage(deps: Deps, token: string): Promise<CardPageView> {
  const link = await liveLink(deps, token);
  if ('view' in link) return link;
  const { claims, card } = link;
  return claims.purpose === 'pin' ? { view: 'pin_form', panMask: card.panMask, problem: null } : { view: 'reveal_prompt', panMask: card.panMask };
}

// The cardholder's own step: a card-data link is used up and the card shown; a PIN link shows its form.
export async function openCardPage(deps: Deps, token: string): Promise<CardPageView> {
  const link = await liveLink(deps, token);
  if ('view' in link) return link;
  const { claims, card } = link;
  if (claims.purpose === 'pin') return { view: 'pin_form', panMask: card.panMask, problem: null };
  return revealCardData(deps, link);
}

// The button of the page that asks first: only a card-data link reveals anything.
export async function confirmCardReveal(deps: Deps, token: string): Promise<CardPageView> {
  const link = await liveLink(deps, token);
  if ('view' in link) return link;
  if (link.claims.purpose !== 'data') return { view: 'gone', reason: 'invalid' };
  return revealCardData(deps, link);
}

async function revealCardData(deps: Deps, { claims, card }: LiveLink): Promise<CardPageView> {
  if (!(await consumePageNonce(deps.db, card.id, claims.nonce))) return { view: 'gone', reason: 'used' };
  const issuer = issuerNamed(deps.masterKey, card.issuer);
  if (issuer === null) return { view: 'issuer_error' };
  try {
    const holderName = `${card.holderFirstName} ${card.holderLastName}`;
    return { view: 'card_data', card: await issuer.cardData({ outerId: card.outerId, expMonth: card.expMonth, expYear: card.expYear, holderName }) };
  } catch {
    return { view: 'issuer_error' };
  }
}

export async function submitCardPin(deps: Deps, token: string, form: { pin: string; confirmation: string }, now = new Date()): Promise<CardPageView> {
  const link = await liveLink(deps, token);
  if ('view' in link) return link;
  const { claims, card } = link;
  if (claims.purpose !== 'pin') return { view: 'gone', reason: 'invalid' };
  const problem = pinProblem(form.pin, form.confirmation);
  if (problem !== null) return { view: 'pin_form', panMask: card.panMask, problem };
  if (!(await consumePageNonce(deps.db, card.id, claims.nonce))) return { view: 'gone', reason: 'used' };
  const issuer = issuerNamed(deps.masterKey, card.issuer);
  if (issuer === null) return { view: 'issuer_error' };
  try {
    await issuer.setPin(card.outerId, form.pin);
  } catch {
    return { view: 'issuer_error' };
  }
  await recordPinSet(deps.db, card.id, now);
  return { view: 'pin_set', panMask: card.panMask };
}
