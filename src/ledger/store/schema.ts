import { sql } from 'drizzle-orm';
import { type AnyPgColumn, bigint, check, index, integer, pgTable, primaryKey, smallint, text } from 'drizzle-orm/pg-core';
import { COMMISSION_OPERATIONS } from '../domain/commission.ts';
import { BALANCED_ACCOUNTS, LEDGER_ACCOUNTS, NON_NEGATIVE_ACCOUNTS, POSTING_KINDS } from '../domain/ledger-postings.ts';
import { bankTransfers, moneyCharges, users } from '../../core-banking/store/schema.ts';
import { disputes, merchants, payments, refunds } from '../../payments/store/schema.ts';
import { createdAt, updatedAt, quoted } from '../../platform/lib/table-columns.ts';

const nonNegativeAccounts = quoted(NON_NEGATIVE_ACCOUNTS);

// Commission terms per merchant and operation (spec: pay, payout, refund), for both environments; none: free.
export const commissions = pgTable(
  'commissions',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    operation: text('operation', { enum: COMMISSION_OPERATIONS }).notNull(),
    percentBp: integer('percent_bp').notNull(),
    fixedMinor: bigint('fixed_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.operation] }),
    check('commissions_operation_check', sql`${table.operation} in (${quoted(COMMISSION_OPERATIONS)})`),
    check('commissions_terms_check', sql`${table.percentBp} between 0 and 10000 and ${table.fixedMinor} >= 0`),
  ],
);

// The double-entry ledger (domain/ledger-postings.ts decides every posting). One row per money event, its entries
// summing to zero, and a running balance per account that the ledger check proves equal to the sum of its entries.
export const ledgerTransactions = pgTable(
  'ledger_transactions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    // Whose accounts it moves: a merchant's (per environment), or a core banking profile's (environment production).
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    profileId: bigint('profile_id', { mode: 'number' }).references((): AnyPgColumn => users.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    kind: text('kind', { enum: POSTING_KINDS }).notNull(),
    paymentId: bigint('payment_id', { mode: 'number' }).references(() => payments.id),
    refundId: bigint('refund_id', { mode: 'number' }).references(() => refunds.id),
    disputeId: bigint('dispute_id', { mode: 'number' }).references(() => disputes.id),
    transferId: bigint('transfer_id', { mode: 'number' }).references((): AnyPgColumn => bankTransfers.id),
    chargeId: bigint('charge_id', { mode: 'number' }).references((): AnyPgColumn => moneyCharges.id),
    createdAt: createdAt(),
  },
  (table) => [
    check('ledger_transactions_owner_check', sql`num_nonnulls(${table.merchantId}, ${table.profileId}) = 1`),
    index('ledger_transactions_profile_idx').on(table.profileId).where(sql`${table.profileId} is not null`),
    index('ledger_transactions_transfer_idx').on(table.transferId).where(sql`${table.transferId} is not null`),
    index('ledger_transactions_charge_idx').on(table.chargeId).where(sql`${table.chargeId} is not null`),
    index('ledger_transactions_payment_idx').on(table.paymentId).where(sql`${table.paymentId} is not null`),
    // A merchant wallet's statement (the dashboard's Balance page), newest first: only the wallet's own rows are read.
    index('ledger_transactions_wallet_idx').on(table.merchantId, table.environment, table.currency, table.id).where(sql`${table.merchantId} is not null`),
    index('ledger_transactions_refund_idx').on(table.refundId).where(sql`${table.refundId} is not null`),
    index('ledger_transactions_dispute_idx').on(table.disputeId).where(sql`${table.disputeId} is not null`),
    check('ledger_transactions_kind_check', sql`${table.kind} in (${quoted(POSTING_KINDS)})`),
  ],
);

export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    transactionId: bigint('transaction_id', { mode: 'number' })
      .notNull()
      .references(() => ledgerTransactions.id),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
  },
  (table) => [
    index('ledger_entries_transaction_idx').on(table.transactionId),
    check('ledger_entries_account_check', sql`${table.account} in (${quoted(LEDGER_ACCOUNTS)})`),
    check('ledger_entries_amount_check', sql`${table.amountMinor} <> 0`),
  ],
);

// Running balances are kept only for the accounts a posting may be refused on or must not take below zero
// (BALANCED_ACCOUNTS: available, hold); the outside world's accounts (customers, payouts, fees) are the sums of
// their entries. `available` is spread over shards: each credit adds to one shard (by the payment it comes from),
// so a busy merchant's approvals do not queue on one row; a guarded debit takes its amount from one shard that
// holds it, or else gathers every shard of the wallet (ledger-repo.ts). `hold` is kept per shard of what it is held
// for (the refund, dispute or payout: reserved and released on the same row), so reservations do not queue either.
export const ledgerBalances = pgTable(
  'ledger_balances',
  {
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    currency: text('currency').notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    shard: smallint('shard').notNull().default(0),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.merchantId, table.environment, table.currency, table.account, table.shard] }),
    check('ledger_balances_account_check', sql`${table.account} in (${quoted(BALANCED_ACCOUNTS)})`),
    check('ledger_balances_shard_check', sql`${table.shard} between 0 and 63`),
    check('ledger_balances_non_negative_check', sql`${table.account} not in (${nonNegativeAccounts}) or ${table.balanceMinor} >= 0`),
  ],
);

// A wallet's running balances, one row per profile, currency and account; the ledger check proves each equal to
// the sum of its entries (ledger_entries of the profile's ledger_transactions).
export const walletBalances = pgTable(
  'wallet_balances',
  {
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    currency: text('currency').notNull(),
    account: text('account', { enum: LEDGER_ACCOUNTS }).notNull(),
    balanceMinor: bigint('balance_minor', { mode: 'number' }).notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.profileId, table.currency, table.account] }),
    check('wallet_balances_account_check', sql`${table.account} in ('wallet', 'banks', 'clearing')`),
    check('wallet_balances_non_negative_check', sql`${table.account} <> 'wallet' or ${table.balanceMinor} >= 0`),
  ],
);
