import { createHmac } from 'node:crypto';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';
import type { TransferDirection } from '../domain/core-banking-values.ts';
import { minorToMajor } from '../domain/decimal-amount.ts';
import { transferPosting } from '../domain/wallet-postings.ts';
import { canonicalJson } from '../../platform/lib/canonical-json.ts';
import { constantTimeEqual } from '../../platform/lib/crypto.ts';
import { findBankTransferByToken, findTransferParties, insertBankTransfer, type BankTransferRow } from '../store/bank-transfers-repo.ts';
import type { Db, Tx } from '../../platform/database.ts';
import { InsufficientWalletError, postWalletLedger, readWalletBalances } from '../../ledger/index.ts';
import { coreAmountMinor, coreFieldError, exponentOf } from '../domain/core-amount.ts';

export interface BankTransferDeps {
  db: Db;
  currencies: CurrencyTable;
  masterKey: Buffer;
}

// POST /api/v2/banking/transfers, as the client sent it (spec 4: all fields required).
export interface BankTransferRequest {
  profile_id: number;
  amount: number;
  currency: string;
  direction: TransferDirection;
  provider: string;
  token: string;
  bank_account_id: number;
}

export interface BankTransferOutcome {
  transfer: {
    id: number;
    token: string;
    profile_id: number;
    bank_account_id: number;
    direction: TransferDirection;
    amount: number;
    amount_minor: number;
    currency: string;
    provider: string;
    created_at: string;
  };
  wallet: { currency: string; available: number; available_minor: number };
  replayed: boolean; // true: the answer to an earlier request with this token (STYLE: exists vs new)
}

const DIGEST_KEY_PURPOSE = 'payrail bank transfer digest v1';

// HMAC-SHA256 of the canonical body under a key derived from the master key for this one purpose (like the
// Idempotency-Key digest, flows/idempotency-keys.ts): key order, whitespace and 10.50 vs 10.5 do not matter.
function transferRequestDigest(masterKey: Buffer, request: BankTransferRequest): string {
  const key = createHmac('sha256', masterKey).update(DIGEST_KEY_PURPOSE).digest();
  return createHmac('sha256', key).update(canonicalJson(request)).digest('hex');
}

// Moves money between a profile's wallet and a bank, once per token (ARCHITECTURE principle 4): the same token with
// the same body answers the stored transfer again; with another body, 422 token_reused. The transfer row, its
// posting and the balance change are one database transaction; a debit the wallet cannot cover writes nothing.
export async function createBankTransfer(deps: BankTransferDeps, appTokenId: number, request: BankTransferRequest): Promise<BankTransferOutcome> {
  const { db, currencies } = deps;
  const amountMinor = coreAmountMinor(currencies, request.amount, request.currency);
  const digest = transferRequestDigest(deps.masterKey, request);
  const stored = await findBankTransferByToken(db, request.token);
  if (stored) return db.transaction((tx) => replay(deps, tx, stored, digest));
  try {
    return await db.transaction(async (tx) => {
      await assertParties(tx, request);
      const { profile_id: profileId, bank_account_id: bankAccountId, direction, provider, token, currency } = request;
      const transfer = await insertBankTransfer(tx, {
        token,
        requestDigest: digest,
        appTokenId,
        profileId,
        bankAccountId,
        direction,
        provider,
        amountMinor,
        currency,
      });
      if (transfer === null) {
        // A concurrent request with this token committed first (this insert waited for it): answer with its result.
        const holder = await findBankTransferByToken(tx, token);
        if (!holder) throw new Error('bank transfer token conflict without a holder');
        return replay(deps, tx, holder, digest);
      }
      await postWalletLedger(tx, profileId, transferPosting(direction, amountMinor, currency), { transferId: transfer.id });
      return outcomeOf(deps, tx, transfer);
    });
  } catch (error) {
    if (!(error instanceof InsufficientWalletError)) throw error;
    throw coreFieldError('insufficient_funds', 'amount', `the wallet holds less than ${request.amount} ${request.currency}; nothing was transferred`);
  }
}

async function replay(deps: BankTransferDeps, tx: Tx, stored: BankTransferRow, digest: string): Promise<BankTransferOutcome> {
  if (!constantTimeEqual(stored.requestDigest, digest)) {
    throw coreFieldError('token_reused', 'token', 'this token was used by a transfer with another body; a new transfer needs a new token');
  }
  return { ...(await outcomeOf(deps, tx, stored)), replayed: true };
}

// spec 4: the profile must exist (404); the bank account must be the profile's, in the transfer's currency, and
// approved (422 on bank_account_id).
async function assertParties(tx: Tx, request: BankTransferRequest): Promise<void> {
  const parties = await findTransferParties(tx, request.profile_id, request.bank_account_id);
  if (parties === null || !parties.profileActive) {
    throw coreFieldError('profile_not_found', 'profile_id', 'no active profile has this id', 404);
  }
  const account = parties.bankAccount;
  if (account === null || account.profileId !== request.profile_id) {
    throw coreFieldError('bank_account_not_found', 'bank_account_id', "this bank account is not one of the profile's");
  }
  if (account.currency !== request.currency) {
    throw coreFieldError('bank_account_currency_mismatch', 'bank_account_id', `this bank account is in ${account.currency}, not ${request.currency}`);
  }
  if (account.status !== 'approved') {
    throw coreFieldError('bank_account_not_approved', 'bank_account_id', `this bank account is ${account.status}, not approved`);
  }
}

async function outcomeOf(deps: BankTransferDeps, tx: Tx, transfer: BankTransferRow): Promise<BankTransferOutcome> {
  const exponent = exponentOf(deps.currencies, transfer.currency);
  const [wallet] = await readWalletBalances(tx, transfer.profileId, transfer.currency);
  const availableMinor = wallet?.availableMinor ?? 0;
  return {
    transfer: {
      id: transfer.id,
      token: transfer.token,
      profile_id: transfer.profileId,
      bank_account_id: transfer.bankAccountId,
      direction: transfer.direction,
      amount: minorToMajor(transfer.amountMinor, exponent),
      amount_minor: transfer.amountMinor,
      currency: transfer.currency,
      provider: transfer.provider,
      created_at: transfer.createdAt.toISOString(),
    },
    wallet: { currency: transfer.currency, available: minorToMajor(availableMinor, exponent), available_minor: availableMinor },
    replayed: false,
  };
}
