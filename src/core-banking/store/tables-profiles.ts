import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { KYC_STATUSES, MEMBERSHIP_ROLES, PROFILE_KINDS, USER_MESSAGE_CHANNELS, WALLET_TYPES } from '../domain/core-banking-values.ts';
import { createdAt, updatedAt, quoted } from '../../platform/lib/table-columns.ts';

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
