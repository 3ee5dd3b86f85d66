import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, jsonb, pgTable, smallint, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { merchants } from '../../payments/store/schema.ts';
import { createdAt, quoted, updatedAt } from '../../platform/lib/table-columns.ts';

// The back office's own tables: the people who sign in to the merchant dashboard, the links e-mailed to them and
// their sessions. Merchants, payments and money stay the payments and ledger modules' tables.

export const MEMBER_ROLES = ['owner', 'developer', 'support', 'viewer'] as const;
export const LINK_KINDS = ['signup', 'invite', 'reset'] as const;
export const SESSION_STAGES = ['second_factor', 'active'] as const;
const ENVIRONMENTS = ['sandbox', 'production'] as const;

// One account per e-mail address, member of one merchant.
export const dashboardMembers = pgTable(
  'dashboard_members',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    merchantId: bigint('merchant_id', { mode: 'number' })
      .notNull()
      .references(() => merchants.id),
    email: text('email').notNull(), // lower case
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: MEMBER_ROLES }).notNull(),
    totpSecretSealed: text('totp_secret_sealed'), // sealed with the master key; null: codes by the delivery channel
    totpPendingSealed: text('totp_pending_sealed'), // a secret being enrolled, until its first code is confirmed
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('dashboard_members_email_idx').on(table.email),
    index('dashboard_members_merchant_idx').on(table.merchantId),
    check('dashboard_members_role_check', sql`${table.role} in (${quoted(MEMBER_ROLES)})`),
  ],
);

// E-mailed single-use links: a sign-up's confirmation (the business name and password wait here until then), an
// invitation to a merchant's team, a password reset. Only the SHA-256 of the 256-bit token is kept.
export const dashboardLinks = pgTable(
  'dashboard_links',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    kind: text('kind', { enum: LINK_KINDS }).notNull(),
    tokenDigest: text('token_digest').notNull(),
    email: text('email').notNull(),
    merchantId: bigint('merchant_id', { mode: 'number' }).references(() => merchants.id),
    memberId: bigint('member_id', { mode: 'number' }).references(() => dashboardMembers.id),
    businessName: text('business_name'),
    passwordHash: text('password_hash'),
    role: text('role', { enum: MEMBER_ROLES }),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('dashboard_links_token_idx').on(table.tokenDigest),
    index('dashboard_links_email_idx').on(table.email, table.createdAt),
    check('dashboard_links_kind_check', sql`${table.kind} in (${quoted(LINK_KINDS)})`),
  ],
);

// A signed-in browser. The cookie holds a 256-bit token; the row keeps its SHA-256. A session first waits for the
// second factor (stage second_factor), then is active until idle, absolute expiry, logout or revocation.
export const dashboardSessions = pgTable(
  'dashboard_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    memberId: bigint('member_id', { mode: 'number' })
      .notNull()
      .references(() => dashboardMembers.id),
    stage: text('stage', { enum: SESSION_STAGES }).notNull(),
    codeDigest: text('code_digest'), // HMAC of the e-mailed second-factor code; null with TOTP or once active
    codeAttempts: smallint('code_attempts').notNull().default(0),
    environment: text('environment', { enum: ENVIRONMENTS }).notNull().default('sandbox'), // the test-mode switch
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(), // absolute end
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('dashboard_sessions_token_idx').on(table.tokenDigest),
    index('dashboard_sessions_member_idx').on(table.memberId),
    check('dashboard_sessions_stage_check', sql`${table.stage} in (${quoted(SESSION_STAGES)})`),
    check('dashboard_sessions_environment_check', sql`${table.environment} in (${quoted(ENVIRONMENTS)})`),
  ],
);

// Sign-in attempts, counted per account and per client address over a window (the core banking limits' shape).
export const dashboardSignInAttempts = pgTable(
  'dashboard_sign_in_attempts',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(),
    ipAddress: text('ip_address').notNull(),
    succeeded: boolean('succeeded').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('dashboard_sign_in_attempts_email_idx').on(table.email, table.createdAt),
    index('dashboard_sign_in_attempts_ip_idx').on(table.ipAddress, table.createdAt),
  ],
);

export const OPERATOR_ROLES = ['admin', 'support', 'finance'] as const;
const OPERATOR_STATUSES = ['active', 'disabled'] as const;

// The people who run Payrail (the console at /ops). A second factor is not optional: the TOTP secret is set when the
// account is made (shown once with its password), so no operator can sign in with a password alone.
export const operators = pgTable(
  'operators',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    email: text('email').notNull(), // lower case
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: OPERATOR_ROLES }).notNull(),
    status: text('status', { enum: OPERATOR_STATUSES }).notNull().default('active'),
    totpSecretSealed: text('totp_secret_sealed').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('operators_email_idx').on(table.email),
    check('operators_role_check', sql`${table.role} in (${quoted(OPERATOR_ROLES)})`),
    check('operators_status_check', sql`${table.status} in (${quoted(OPERATOR_STATUSES)})`),
  ],
);

// A signed-in operator's browser: the dashboard's session shape (token digest, second-factor stage, idle and
// absolute ends), with no test-mode switch (the console sees both environments).
export const operatorSessions = pgTable(
  'operator_sessions',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    tokenDigest: text('token_digest').notNull(),
    operatorId: bigint('operator_id', { mode: 'number' })
      .notNull()
      .references(() => operators.id),
    stage: text('stage', { enum: SESSION_STAGES }).notNull(),
    codeAttempts: smallint('code_attempts').notNull().default(0),
    userAgent: text('user_agent').notNull().default(''),
    ipAddress: text('ip_address').notNull().default(''),
    createdAt: createdAt(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    uniqueIndex('operator_sessions_token_idx').on(table.tokenDigest),
    index('operator_sessions_operator_idx').on(table.operatorId),
    check('operator_sessions_stage_check', sql`${table.stage} in (${quoted(SESSION_STAGES)})`),
  ],
);

// The audit log: append-only (a trigger refuses UPDATE, DELETE and TRUNCATE; no code path writes either). Rows come
// from the audited tables' triggers, in the transaction of the change, and from the back office for actions that
// change no audited row (a sign-in, a ledger check run, an export). Migration 0015 holds the triggers.
export const auditEvents = pgTable(
  'audit_events',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    occurredAt: timestamp('occurred_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    actor: text('actor').notNull(), // operator:<id> | member:<id> | key:<prefix> | admin-key | system:<worker>
    action: text('action').notNull(), // merchant.approve, payment.status_changed, operator.sign_in, …
    subjectType: text('subject_type').notNull(),
    subjectId: text('subject_id').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(), // the changed fields before (secrets as "[redacted]")
    after: jsonb('after').$type<Record<string, unknown>>(),
    requestId: text('request_id'),
    ipAddress: text('ip_address'),
  },
  (table) => [
    index('audit_events_subject_idx').on(table.subjectType, table.subjectId, table.id),
    index('audit_events_actor_idx').on(table.actor, table.id),
    index('audit_events_action_idx').on(table.action, table.id),
    // time grows with the id: a BRIN index serves from/to at a fraction of a b-tree's cost per insert
    index('audit_events_occurred_idx').using('brin', table.occurredAt),
  ],
);
