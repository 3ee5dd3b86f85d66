import Type, { type Static, type TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { CliError, EXIT_CODES } from './cli-error.ts';

// What the CLI reads of the admin API's answers, as schemas: each part is checked before it is printed, so a server
// that answers otherwise (another version) is named as such instead of printing "undefined". Fields the CLI does not
// read are let through (and printed as they came with --json).

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const MerchantSummary = Type.Object({
  id: Type.Number(),
  name: Type.String(),
  display_name: Nullable(Type.String()),
  status: Type.String(),
  review_status: Type.Optional(Type.String()),
  review_note: Type.Optional(Nullable(Type.String())),
  created_at: Type.String(),
  keys: Type.Array(Type.Object({ environment: Type.String(), prefix: Type.String() })),
});
export type MerchantSummary = Static<typeof MerchantSummary>;

export const CreatedMerchant = Type.Object({
  id: Type.Number(),
  name: Type.String(),
  display_name: Nullable(Type.String()),
  sandbox_key: Type.String(),
  production_key: Type.String(),
});

export const GatewaySummary = Type.Object({
  id: Type.Number(),
  merchant_id: Type.Number(),
  alias: Type.String(),
  environment: Type.String(),
  status: Type.String(),
  settings: Type.Object({ gateway_settings: Type.Optional(Type.Object({ full_link: Type.Optional(Type.String()) })) }),
  created_at: Type.String(),
});
export type GatewaySummary = Static<typeof GatewaySummary>;

export const AppTokenSummary = Type.Object({
  id: Type.Number(),
  name: Type.String(),
  prefix: Type.String(),
  created_at: Type.String(),
  last_used_at: Nullable(Type.String()),
  revoked_at: Nullable(Type.String()),
});
export type AppTokenSummary = Static<typeof AppTokenSummary>;
export const CreatedAppToken = Type.Intersect([AppTokenSummary, Type.Object({ token: Type.String() })]);

const CommissionTerms = Nullable(Type.Object({ percent: Type.Number(), fixed: Type.Number() }));
export const MerchantCommissions = Type.Object({ pay: CommissionTerms, payout: CommissionTerms, refund: CommissionTerms });

export const ConflictSummary = Type.Object({
  id: Type.Number(),
  payment_token: Type.String(),
  merchant_id: Type.Number(),
  environment: Type.String(),
  source: Type.String(),
  payment_status: Type.String(),
  current_status: Type.String(),
  reported_status: Type.String(),
  reported_amount: Nullable(Type.Number()),
  reported_currency: Nullable(Type.String()),
  created_at: Type.String(),
  resolution: Nullable(Type.String()),
  resolved_by: Nullable(Type.String()),
  resolved_at: Nullable(Type.String()),
});
export type ConflictSummary = Static<typeof ConflictSummary>;

export const DisputeSummary = Type.Object({
  token: Type.String(),
  merchant_id: Type.Number(),
  environment: Type.String(),
  payment_token: Type.String(),
  amount: Type.Number(),
  currency: Type.String(),
  status: Type.String(),
  description: Type.String(),
  resolution_note: Nullable(Type.String()),
  documents: Type.Array(Type.Object({ id: Type.Number(), file_name: Type.String(), media_type: Type.String(), size: Type.Number() })),
  created_at: Type.String(),
});
export type DisputeSummary = Static<typeof DisputeSummary>;

export const ProfileSummary = Type.Object({
  id: Type.Number(),
  kind: Type.String(),
  email: Nullable(Type.String()),
  phone: Nullable(Type.String()),
  fullname: Type.String(),
  wallet_type: Type.String(),
  current_currency: Type.String(),
  status: Type.String(),
  created_at: Type.String(),
});
export type ProfileSummary = Static<typeof ProfileSummary>;

export const ListedMessage = Type.Object({
  id: Type.Number(),
  user_id: Nullable(Type.Number()),
  channel: Type.String(),
  recipient: Type.String(),
  subject: Type.String(),
  body: Nullable(Type.String()),
  status: Type.String(),
  created_at: Type.String(),
  expires_at: Nullable(Type.String()),
  last_error: Nullable(Type.String()),
});

// The part `field` of an answer, checked against its schema.
export function answerPart<T extends TSchema>(answer: Record<string, unknown>, field: string, schema: T): Static<T> {
  const value = answer[field];
  if (Value.Check(schema, value)) return value;
  const [first] = Value.Errors(schema, value);
  const where = first ? `${field}${first.instancePath.replaceAll('/', '.')} ${first.message}` : field;
  throw new CliError(`the server answered in an unexpected shape (${where}): is it another version of Payrail?`, EXIT_CODES.failed);
}
