import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { MoneyChargeStatus } from '../domain/core-banking-values.ts';
import { minorToMajor } from '../domain/decimal-amount.ts';
import { CHARGE_PAGE_SIZE, decideChargeAction, parsePayerReference, type ChargeAction, type MoneyChargePrivacy } from '../domain/money-charges.ts';
import { chargePaid, chargeReceived } from '../domain/wallet-postings.ts';
import { CoreApiError } from '../../platform/lib/core-errors.ts';
import type { Db, Tx } from '../../platform/database.ts';
import { findPayerId, insertMoneyCharge, listMoneyCharges, lockMoneyCharge, resolveMoneyCharge, type MoneyChargeRow } from '../store/money-charges-repo.ts';
import { InsufficientWalletError, postWalletLedger } from '../../ledger/index.ts';
import { coreAmountMinor, coreFieldError, exponentOf } from '../domain/core-amount.ts';

export interface MoneyChargeDeps {
  db: Db;
  currencies: CurrencyTable;
}

export interface MoneyChargeView {
  id: number;
  role: 'payer' | 'requester'; // the signed-in user's side of it
  requester_id: number;
  payer_id: number;
  amount: number;
  amount_minor: number;
  currency: string;
  description: string;
  privacy: MoneyChargePrivacy;
  status: MoneyChargeStatus;
  created_at: string;
  resolved_at: string | null;
}

export interface NewChargeRequest {
  payer: string | number;
  amount: number;
  currency: string;
  description: string;
  privacy: MoneyChargePrivacy;
}

// POST /api/v1/social/money/charge: the signed-in user asks another person for money. An unknown payer, the user
// themself and a disabled or business profile all answer the same 422 payer_not_found.
export async function createMoneyCharge(deps: MoneyChargeDeps, requesterId: number, request: NewChargeRequest): Promise<MoneyChargeView> {
  const amountMinor = coreAmountMinor(deps.currencies, request.amount, request.currency);
  const reference = parsePayerReference(request.payer);
  const payerId = reference === null ? null : await findPayerId(deps.db, reference);
  if (payerId === null || payerId === requesterId) {
    throw coreFieldError('payer_not_found', 'payer', 'no other active person matches this payer');
  }
  const charge = await insertMoneyCharge(deps.db, {
    requesterId,
    payerId,
    amountMinor,
    currency: request.currency,
    description: request.description,
    privacy: request.privacy,
  });
  return viewOf(deps, charge, requesterId);
}

export interface ChargeListRequest {
  role: 'payer' | 'requester' | null;
  status: MoneyChargeStatus | null;
  page: number;
}

// The user's own charges only: addressed to them (role payer), sent by them (role requester), or both.
export async function listUserMoneyCharges(deps: MoneyChargeDeps, userId: number, request: ChargeListRequest) {
  const rows = await listMoneyCharges(deps.db, {
    userId,
    role: request.role,
    status: request.status,
    limit: CHARGE_PAGE_SIZE + 1,
    offset: (request.page - 1) * CHARGE_PAGE_SIZE,
  });
  return {
    charges: rows.slice(0, CHARGE_PAGE_SIZE).map((row) => viewOf(deps, row, userId)),
    page: request.page,
    per_page: CHARGE_PAGE_SIZE,
    has_more: rows.length > CHARGE_PAGE_SIZE,
  };
}

// The payer pays from their wallet in the charge's currency: the charge turns paid and its two postings (payer:
// wallet → clearing, guarded; requester: clearing → wallet) are written in one database transaction, the lower
// profile id first (wallet-ledger-repo.ts lock order). A wallet that holds too little leaves the charge pending.
export async function payMoneyCharge(deps: MoneyChargeDeps, userId: number, id: number): Promise<MoneyChargeView> {
  try {
    return await deps.db.transaction(async (tx) => {
      const charge = await resolve(tx, userId, id, 'pay', null);
      const { amountMinor, currency } = charge;
      const postings = [
        { profileId: charge.payerId, posting: chargePaid(amountMinor, currency) },
        { profileId: charge.requesterId, posting: chargeReceived(amountMinor, currency) },
      ].sort((left, right) => left.profileId - right.profileId);
      for (const { profileId, posting } of postings) await postWalletLedger(tx, profileId, posting, { chargeId: charge.id });
      return viewOf(deps, charge, userId);
    });
  } catch (error) {
    if (!(error instanceof InsufficientWalletError)) throw error;
    throw coreFieldError('insufficient_funds', 'id', `the wallet holds less than this charge's ${error.currency} amount; nothing was paid`);
  }
}

// Only the payer declines, only a pending charge; `privacy`, when given, becomes the charge's.
export async function declineMoneyCharge(deps: MoneyChargeDeps, userId: number, id: number, privacy: MoneyChargePrivacy | null): Promise<void> {
  await deps.db.transaction((tx) => resolve(tx, userId, id, 'decline', privacy));
}

// Only the requester cancels, only a pending charge.
export async function cancelMoneyCharge(deps: MoneyChargeDeps, userId: number, id: number): Promise<void> {
  await deps.db.transaction((tx) => resolve(tx, userId, id, 'cancel', null));
}

// Locks the charge, lets the domain decide (another user's charge is 404, the same as a missing one; a charge
// that is no longer pending is 409), and ends it.
async function resolve(tx: Tx, userId: number, id: number, action: ChargeAction, privacy: MoneyChargePrivacy | null): Promise<MoneyChargeRow> {
  const decision = decideChargeAction(await lockMoneyCharge(tx, id), userId, action);
  if (!decision.ok && decision.problem === 'not_found') throw new CoreApiError('not_found', 404, 'money charge not found', [notFound]);
  const resolved = decision.ok ? await resolveMoneyCharge(tx, id, decision.to, privacy) : null;
  if (resolved === null) throw new CoreApiError('charge_not_pending', 409, 'this money charge is no longer pending');
  return resolved;
}

const notFound = { code: 'not_found', kind: 'not_found', field: 'id', message: 'money charge not found' };

function viewOf(deps: MoneyChargeDeps, charge: MoneyChargeRow, userId: number): MoneyChargeView {
  const exponent = exponentOf(deps.currencies, charge.currency);
  return {
    id: charge.id,
    role: charge.payerId === userId ? 'payer' : 'requester',
    requester_id: charge.requesterId,
    payer_id: charge.payerId,
    amount: minorToMajor(charge.amountMinor, exponent),
    amount_minor: charge.amountMinor,
    currency: charge.currency,
    description: charge.description,
    privacy: charge.privacy,
    status: charge.status,
    created_at: charge.createdAt.toISOString(),
    resolved_at: charge.resolvedAt?.toISOString() ?? null,
  };
}
