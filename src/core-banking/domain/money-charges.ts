// Money charges: one profile (the requester) asks another (the payer) for money. Pure rules: who may do what to a
// charge, and how a payer is named. wallet-postings.ts decides what paying one posts.

import type { MoneyChargeStatus } from './core-banking-values.ts';
import { normalizeEmail, normalizePhone } from './profile-contacts.ts';

export const MONEY_CHARGE_PRIVACIES = ['public', 'friends', 'private'] as const;
export type MoneyChargePrivacy = (typeof MONEY_CHARGE_PRIVACIES)[number];

export const CHARGE_DESCRIPTION_LENGTH_MAX = 255;
export const CHARGE_PAGE_SIZE = 20; // spec 8: lists default to 20 per page
export const CHARGE_PAGE_MAX = 10_000; // deeper pages are refused: ask with a status filter instead

export type ChargeAction = 'pay' | 'decline' | 'cancel';

// The payer pays or declines; the requester cancels. Each ends a pending charge.
const ACTIONS: Readonly<Record<ChargeAction, { actor: 'payer' | 'requester'; to: MoneyChargeStatus }>> = {
  pay: { actor: 'payer', to: 'paid' },
  decline: { actor: 'payer', to: 'declined' },
  cancel: { actor: 'requester', to: 'cancelled' },
};

export interface ChargeParties {
  requesterId: number;
  payerId: number;
  status: MoneyChargeStatus;
}

export type ChargeDecision = { ok: true; to: MoneyChargeStatus } | { ok: false; problem: 'not_found' | 'not_pending' };

// A charge the actor may not act on is not found (the same answer as a charge that does not exist, so nobody
// learns of another's charges); one they may act on but that is no longer pending is not_pending.
export function decideChargeAction(charge: ChargeParties | null, actorId: number, action: ChargeAction): ChargeDecision {
  const rule = ACTIONS[action];
  if (charge === null) return { ok: false, problem: 'not_found' };
  const actor = rule.actor === 'payer' ? charge.payerId : charge.requesterId;
  if (actor !== actorId) return { ok: false, problem: 'not_found' };
  if (charge.status !== 'pending') return { ok: false, problem: 'not_pending' };
  return { ok: true, to: rule.to };
}

export type PayerReference = { by: 'id'; id: number } | { by: 'email'; email: string } | { by: 'phone'; phone: string };

// How the requester names the payer: a profile id (a JSON integer, or digits), an e-mail address, or a phone number
// in international form (+ and digits), each in the normal form profiles are stored in (profile-contacts.ts).
// null: none of these.
export function parsePayerReference(payer: string | number): PayerReference | null {
  if (typeof payer === 'number') return Number.isSafeInteger(payer) && payer > 0 ? { by: 'id', id: payer } : null;
  const text = payer.trim();
  if (/^[0-9]{1,15}$/.test(text)) {
    const id = Number(text);
    return id > 0 ? { by: 'id', id } : null;
  }
  if (text.includes('@')) {
    const email = normalizeEmail(text);
    return email === null ? null : { by: 'email', email };
  }
  const phone = normalizePhone(text);
  return phone === null ? null : { by: 'phone', phone };
}
