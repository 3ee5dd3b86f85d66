import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { MONEY_CHARGE_PRIVACIES } from '../domain/money-charges.ts';
import {
  BANK_ACCOUNT_PROVIDERS,
  BANK_ACCOUNT_STATUSES,
  BANK_CARD_STATUSES,
  BANK_CARD_TYPES,
  KYC_STATUSES,
  MEMBERSHIP_ROLES,
  MONEY_CHARGE_STATUSES,
  PROFILE_KINDS,
  TRANSFER_DIRECTIONS,
  USER_MESSAGE_CHANNELS,
  WALLET_TYPES,
} from '../domain/core-banking-values.ts';
import { merchants } from '../../payments/store/schema.ts';
import { createdAt, updatedAt } from '../../platform/lib/table-columns.ts';

const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

// ---- Core banking (spec 2.6, 2.7): profiles, sign-in, bank accounts, wallets, transfers, charges, bank cards ----

// A profile (spec 2.7). A person signs in with e-mail or phone and a password (a memory-hard hash); a business
// (segregated) account has no password: its members act on it (user_memberships).
export const users = pgTable(
  'users',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: PROFILE_KINDS }).notNull().default('person'),
    email: text('email'), // stored lower-cased
    phone: text('phone'), // stored as + and digits
    name: text('name').notNull(),
    surname: text('surname').notNull().default(''),
    companyName: text('company_name'),
    walletType: text('wallet_type', { enum: WALLET_TYPES }).notNull().default('personal'),
    currentCurrency: text('current_currency').notNull(),
    country: text('country'), // ISO 3166-1 alpha-2
    kycStatus: text('kyc_status', { enum: KYC_STATUSES }).notNull().default('not_started'),
    walletPinEnabled: boolean('wallet_pin_enabled').notNull().default(false),
    passwordHash: text('password_hash'),
    status: text('status', { enum: ['active', 'disabled'] })
      .notNull()
      .default('active'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('users_email_idx').on(table.email).where(sql`${table.email} is not null`),
    uniqueIndex('users_phone_idx').on(table.phone).where(sql`${table.phone} is not null`),
    check('users_kind_check', sql`${table.kind} in (${quoted(PROFILE_KINDS)})`),
    check('users_wallet_type_check', sql`${table.walletType} in (${quoted(WALLET_TYPES)})`),
    check('users_kyc_status_check', sql`${table.kycStatus} in (${quoted(KYC_STATUSES)})`),
    check('users_person_login_check', sql`${table.kind} = 'business' or (${table.email} is not null and ${table.passwordHash} is not null)`),
  ],
);

// Who may act on a business account.
export const userMemberships = pgTable(
  'user_memberships',
  {
    businessId: bigint('business_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    memberId: bigint('member_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    role: text('role', { enum: MEMBERSHIP_ROLES }).notNull().default('member'),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.businessId, table.memberId] }),
    index('user_memberships_member_idx').on(table.memberId),
    check('user_memberships_role_check', sql`${table.role} in (${quoted(MEMBERSHIP_ROLES)})`),
  ],
);

// The first step of sign-in: a pre-session token that can only confirm, and the digest of the code sent for it.
// An unknown login gets one too (user_id null), so the answer never tells whether an account exists.
export const loginChallenges = pgTable(
  'login_challenges',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    codeDigest: text('code_digest'), // HMAC under a server key: a 6-digit code's plain hash would be guessed at once
    // HMAC of the normalised login as typed: the per-account limit counts attempts on unknown logins the same way
    loginDigest: text('login_digest').notNull(),
    wrongCodes: smallint('wrong_codes').notNull().default(0),
    clientIp: text('client_ip').notNull(),
    method: text('method'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    consumedAt: timestamp('consumed_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('login_challenges_token_idx').on(table.tokenDigest),
    index('login_challenges_user_idx').on(table.userId, table.createdAt),
    index('login_challenges_login_idx').on(table.loginDigest, table.createdAt),
    index('login_challenges_ip_idx').on(table.clientIp, table.createdAt),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    userId: bigint('user_id', { mode: 'number' })
      .notNull()
      .references(() => users.id),
    method: text('method'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    // The first session of the sign-in this one derives from (login/complete); null: this session is that first one.
    chainId: bigint('chain_id', { mode: 'number' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('sessions_token_idx').on(table.tokenDigest),
    index('sessions_user_idx').on(table.userId),
    index('sessions_chain_idx').on(table.chainId),
  ],
);

// Tokens of internal services (header app-token), shown once when created, kept as digests.
export const appTokens = pgTable(
  'app_tokens',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    name: text('name').notNull(),
    tokenDigest: text('token_digest').notNull(),
    tokenPrefix: text('token_prefix').notNull(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('app_tokens_digest_idx').on(table.tokenDigest)],
);

// Messages to people (confirmation codes): written in the transaction that causes them, delivered by the notifier
// (the log by default, SMTP when configured), listed by `payrail outbox`.
export const userMessages = pgTable(
  'user_messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    userId: bigint('user_id', { mode: 'number' }).references(() => users.id),
    channel: text('channel', { enum: USER_MESSAGE_CHANNELS }).notNull(),
    recipient: text('recipient').notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [
    // a message whose body is blanked (expired, given up) has nothing left to deliver or to blank
    index('user_messages_pending_idx').on(table.createdAt).where(sql`${table.sentAt} is null and ${table.body} <> ''`),
    index('user_messages_live_body_idx').on(table.expiresAt).where(sql`${table.body} <> ''`),
    check('user_messages_channel_check', sql`${table.channel} in (${quoted(USER_MESSAGE_CHANNELS)})`),
  ],
);

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
    details: jsonb('details').notNull().default({}),
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
    delivery: jsonb('delivery'),
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
