import { ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX, cardRequestProblems, normalizePhone, type DeliveryAttributes } from '../domain/bank-card-rules.ts';
import type { BankCardType } from '../domain/core-banking-values.ts';
import type { CardIssuer, CardIssueOutcome, CardIssueRequest } from '../gateways/card-issuer.ts';
import { CoreApiError, type CoreErrorItem } from '../../platform/lib/core-errors.ts';
import type { Db } from '../../platform/database.ts';
import {
  countActiveCards,
  findCardBankAccount,
  insertIssuedCard,
  insertRejectedCard,
  type BankCardRow,
  type CardBankAccount,
} from '../store/bank-cards-repo.ts';
import { authenticateCardMerchantKey, type CardProgramMerchant } from './card-merchant-key.ts';
import { issuerForEnvironment } from './card-issuers.ts';

// POST /api/internal/v1/bank_cards (spec 4): validate, load the bank account, ask the key's card issuer, record the
// card it issued or the rejection it gave. The issuer is asked outside any transaction (ARCHITECTURE principle 8).

export interface BankCardRequest {
  merchantPrivateKey: string;
  bankAccountId: number;
  cardType: BankCardType;
  holderFirstName: string;
  holderLastName: string;
  phone?: string | undefined;
  holderPhone?: string | undefined;
  countryCode?: string | undefined;
  delivery?: DeliveryAttributes | undefined;
}

export type BankCardResult = { outcome: 'issued'; card: BankCardRow } | { outcome: 'rejected'; card: BankCardRow };

const LIMIT_CLOSED_REASON = `closed at issue: the bank account already had ${ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX} active cards`;

const unprocessable = (code: string, message: string, field?: string, kind = 'bank_card') => {
  const item: CoreErrorItem = field === undefined ? { code, kind, message } : { code, kind, message, field };
  return new CoreApiError(code, 422, message, [item]);
};

export async function issueBankCard(deps: { db: Db; masterKey: Buffer }, request: BankCardRequest): Promise<BankCardResult> {
  const { db } = deps;
  const merchant = await authenticateCardMerchantKey(db, request.merchantPrivateKey);
  const problems = cardRequestProblems({ cardType: request.cardType, countryCode: request.countryCode, delivery: request.delivery });
  if (problems.length > 0) {
    const items = problems.map((problem) => ({ ...problem, kind: 'validation' }));
    throw new CoreApiError(items[0]?.code ?? 'invalid_field', 422, items.map((item) => `${item.field} ${item.message}`).join('; '), items);
  }
  const account = await bankAccountTakingCards(db, request.bankAccountId);
  const issuer = issuerForEnvironment(deps.masterKey, merchant.environment);
  if (issuer === null) {
    throw unprocessable('issuer_unavailable', `no card issuer is configured for ${merchant.environment} keys; use a sandbox key to issue test cards`);
  }
  if ((await countActiveCards(db, request.bankAccountId)) >= ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX) throw cardLimitReached();

  const issueRequest = issueRequestOf(request);
  const outcome = await askIssuer(issuer, issueRequest);
  const base = cardRowBase(request, issueRequest, { ...merchant, profileId: account.profileId, issuer: issuer.name });
  if (outcome.outcome === 'rejected')
    return { outcome: 'rejected', card: await insertRejectedCard(db, { ...base, status: 'rejected', rejectionReason: outcome.reason }) };
  const issued = { ...base, outerId: outcome.outerId, panMask: outcome.panMask, expMonth: outcome.expMonth, expYear: outcome.expYear };
  const saved = await insertIssuedCard(db, { ...issued, status: 'active' }, ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX, LIMIT_CLOSED_REASON);
  if (!saved.withinLimit) throw cardLimitReached();
  return { outcome: 'issued', card: saved.card };
}

const cardLimitReached = () =>
  unprocessable('card_limit_reached', `a bank account holds at most ${ACTIVE_CARDS_PER_BANK_ACCOUNT_MAX} active cards`, 'bank_account_id');

async function bankAccountTakingCards(db: Db, bankAccountId: number): Promise<CardBankAccount> {
  const account = await findCardBankAccount(db, bankAccountId);
  if (account === null) throw unprocessable('bank_account_not_found', `bank account ${bankAccountId} does not exist`, 'bank_account_id');
  if (account.status !== 'approved') {
    throw unprocessable(
      'bank_account_not_approved',
      `bank account ${bankAccountId} is ${account.status}; cards are issued on approved accounts only`,
      'bank_account_id',
    );
  }
  if (account.profileStatus !== 'active') throw unprocessable('profile_disabled', 'the profile of this bank account is disabled', 'bank_account_id');
  return account;
}

async function askIssuer(issuer: CardIssuer, request: CardIssueRequest): Promise<CardIssueOutcome> {
  try {
    return await issuer.issue(request);
  } catch {
    throw new CoreApiError('issuer_error', 502, 'the card issuer did not answer; no card was issued', [
      { code: 'issuer_error', kind: 'issuer', message: 'the card issuer did not answer; no card was issued' },
    ]);
  }
}

function issueRequestOf(request: BankCardRequest): CardIssueRequest {
  const delivery = request.cardType === 'physical' && request.delivery ? trimmedDelivery(request.delivery) : null;
  return {
    cardType: request.cardType,
    holderFirstName: request.holderFirstName.trim(),
    holderLastName: request.holderLastName.trim(),
    phone: request.phone === undefined ? null : normalizePhone(request.phone),
    holderPhone: request.holderPhone === undefined ? null : normalizePhone(request.holderPhone),
    countryCode: request.countryCode ?? null,
    delivery,
  };
}

// A virtual card is not posted: delivery attributes sent with one are not kept.
function trimmedDelivery(delivery: DeliveryAttributes): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(delivery)) if (typeof value === 'string' && value.trim() !== '') kept[name] = value.trim();
  return kept;
}

function cardRowBase(request: BankCardRequest, issueRequest: CardIssueRequest, owner: CardProgramMerchant & { profileId: number; issuer: string }) {
  return {
    profileId: owner.profileId,
    bankAccountId: request.bankAccountId,
    merchantId: owner.merchantId,
    environment: owner.environment,
    issuer: owner.issuer,
    cardType: request.cardType,
    holderFirstName: issueRequest.holderFirstName,
    holderLastName: issueRequest.holderLastName,
    phone: issueRequest.phone,
    holderPhone: issueRequest.holderPhone,
    countryCode: issueRequest.countryCode,
    delivery: issueRequest.delivery,
  };
}
