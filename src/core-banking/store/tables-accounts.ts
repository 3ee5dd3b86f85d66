import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { MONEY_CHARGE_PRIVACIES } from '../domain/money-charges.ts';
import type { BankAccountDetails, CardDelivery } from '../domain/stored-json.ts';
import {
  BANK_ACCOUNT_PROVIDERS,
  BANK_ACCOUNT_STATUSES,
  BANK_CARD_STATUSES,
  BANK_CARD_TYPES,
  MONEY_CHARGE_STATUSES,
  TRANSFER_DIRECTIONS,
} from '../domain/core-banking-values.ts';
import { merchants } from '../../payments/store/schema.ts';
import { createdAt, updatedAt, quoted } from '../../platform/lib/table-columns.ts';
import { appTokens, users } from './tables-profiles.ts';

// A bank account or beneficiary of a profile (spec 2.6). `details` keeps the beneficiary fields and any extra ones.
export const bankAccounts = pgTable(
  'bank_accounts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    token: text('token').notNull(),
    value: text('value').notNull(),
    currency: text('currency').notNull(),
    status: text('status', { enum: BANK_ACCOUNT_STATUSES }).notNull().default('pending'),
    provider: text('provider', { enum: BANK_ACCOUNT_PROVIDERS }).notNull().default('default'),
    verified: boolean('verified').notNull().default(false),
    swiftCode: text('swift_code'),
    ukSortCode: text('uk_sort_code'),
    ukAccountNumber: text('uk_account_number'),
    accountNumber: text('account_number'),
    accountHolder: text('account_holder'),
    bankName: text('bank_name'),
    bankAddress: text('bank_address'),
    recipientName: text('recipient_name'),
    recipientAddress: text('recipient_address'),
    refCode: text('ref_code'),
    paymentSystem: text('payment_system'),
    outerId: text('outer_id'),
    details: jsonb('details').$type<BankAccountDetails>().notNull().default({}),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('bank_accounts_token_idx').on(table.token),
    index('bank_accounts_profile_idx').on(table.profileId, table.id),
    index('bank_accounts_outer_id_idx').on(table.outerId).where(sql`${table.outerId} is not null`),
    check('bank_accounts_status_check', sql`${table.status} in (${quoted(BANK_ACCOUNT_STATUSES)})`),
    check('bank_accounts_provider_check', sql`${table.provider} in (${quoted(BANK_ACCOUNT_PROVIDERS)})`),
  ],
);

// KYC documents of a profile, stored in the data folder like dispute evidence; file_index is a file's place among
// the profile's live files of its kind.
export const profileFiles = pgTable(
  'profile_files',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    storedName: text('stored_name').notNull(),
    sizeBytes: integer('size_bytes').notNull(),
    sha256: text('sha256').notNull(),
    deletedAt: timestamp('deleted_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [index('profile_files_profile_idx').on(table.profileId, table.kind, table.id)],
);

// A transfer between a profile's wallet and a bank (POST /api/v2/banking/transfers), idempotent on the caller's
// token: the digest of its request tells a retry from a different request under the same token.
export const bankTransfers = pgTable(
  'bank_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    token: text('token').notNull(),
    requestDigest: text('request_digest').notNull(),
    appTokenId: bigint('app_token_id', { mode: 'number' })
      .notNull()
      .references(() => appTokens.id),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    bankAccountId: bigint('bank_account_id', { mode: 'number' })
      .notNull()
      .references(() => bankAccounts.id),
    direction: text('direction', { enum: TRANSFER_DIRECTIONS }).notNull(),
    provider: text('provider').notNull(),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('bank_transfers_token_idx').on(table.token),
    index('bank_transfers_profile_idx').on(table.profileId, table.id),
    check('bank_transfers_direction_check', sql`${table.direction} in (${quoted(TRANSFER_DIRECTIONS)})`),
    check('bank_transfers_amount_check', sql`${table.amountMinor} > 0`),
  ],
);

// A request for money from one profile to another; the payer pays it (wallet to wallet) or declines it.
export const moneyCharges = pgTable(
  'money_charges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    requesterId: bigint('requester_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    payerId: bigint('payer_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    amountMinor: bigint('amount_minor', { mode: 'number' }).notNull(),
    currency: text('currency').notNull(),
    description: text('description').notNull().default(''),
    privacy: text('privacy', { enum: MONEY_CHARGE_PRIVACIES }).notNull().default('private'),
    status: text('status', { enum: MONEY_CHARGE_STATUSES }).notNull().default('pending'),
    resolvedAt: timestamp('resolved_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('money_charges_payer_idx').on(table.payerId, table.id),
    index('money_charges_requester_idx').on(table.requesterId, table.id),
    check('money_charges_status_check', sql`${table.status} in (${quoted(MONEY_CHARGE_STATUSES)})`),
    check('money_charges_privacy_check', sql`${table.privacy} in (${quoted(MONEY_CHARGE_PRIVACIES)})`),
    check('money_charges_amount_check', sql`${table.amountMinor} > 0`),
    check('money_charges_parties_check', sql`${table.requesterId} <> ${table.payerId}`),
  ],
);

// A bank card issued on a bank account through a card-issuing provider (the built-in sandbox issuer, or a real
// one). Only the mask is kept: full card data is shown on the issuer's hosted page, never through the API.
export const bankCards = pgTable(
  'bank_cards',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    profileId: bigint('profile_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    bankAccountId: bigint('bank_account_id', { mode: 'number' })
      .notNull()
      .references(() => bankAccounts.id),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    environment: text('environment', { enum: ['sandbox', 'production'] }).notNull(),
    issuer: text('issuer').notNull(),
    outerId: text('outer_id'),
    cardType: text('card_type', { enum: BANK_CARD_TYPES }).notNull(),
    status: text('status', { enum: BANK_CARD_STATUSES }).notNull(),
    panMask: text('pan_mask'),
    expMonth: smallint('exp_month'),
    expYear: smallint('exp_year'),
    holderFirstName: text('holder_first_name').notNull(),
    holderLastName: text('holder_last_name').notNull(),
    phone: text('phone'),
    holderPhone: text('holder_phone'),
    countryCode: text('country_code'),
    delivery: jsonb('delivery').$type<CardDelivery>(),
    rejectionReason: text('rejection_reason'),
    pinSetAt: timestamp('pin_set_at', { withTimezone: true, mode: 'date' }),
    // The jti of the one live hosted-page link (card data or PIN); cleared when used, replaced by a newer link.
    pageNonce: text('page_nonce'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('bank_cards_outer_id_idx').on(table.issuer, table.outerId).where(sql`${table.outerId} is not null`),
    index('bank_cards_bank_account_idx').on(table.bankAccountId),
    index('bank_cards_profile_idx').on(table.profileId),
    check('bank_cards_type_check', sql`${table.cardType} in (${quoted(BANK_CARD_TYPES)})`),
    check('bank_cards_status_check', sql`${table.status} in (${quoted(BANK_CARD_STATUSES)})`),
  ],
);
