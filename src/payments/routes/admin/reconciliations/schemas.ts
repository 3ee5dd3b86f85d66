import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { CURSOR_LENGTH_MAX, Id } from '../../../../platform/lib/limits.ts';
import { SETTLEMENT_COLUMNS_EXAMPLE, SettlementColumnsSchema } from '../../../domain/settlement-columns.ts';

export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing was changed' });
export const NotFound = errorEnvelopeSchema({ meaning: 'no gateway or reconciliation has this id or token', codes: 'not_found' });
export const ColumnsRefused = errorEnvelopeSchema({ meaning: 'the mapping fails its schema, or maps one column twice', codes: 'invalid_field, unknown_field' });
export const ListRefused = errorEnvelopeSchema({
  meaning: 'a filter fails the schema, or the cursor is not one this API gave',
  codes: 'invalid_field, invalid_cursor',
});
export const ImportRefused = errorEnvelopeSchema({
  meaning:
    'the form or the file cannot be read: a missing or unknown field, a header without a mapped column, a line whose amount, currency, status or date the mapping cannot read (the message names the line); the failed import is listed with its reason',
  codes: 'invalid_settlement_file, invalid_field, unknown_field',
  field: 'gatewayId or file',
});
export const ImportTooLarge = errorEnvelopeSchema({
  meaning: 'the file is larger than 200 MiB, or the form has too many parts',
  codes: 'file_too_large, too_many_parts',
});
export const NoColumns = errorEnvelopeSchema({ meaning: 'the gateway has no settlement columns yet', codes: 'settlement_columns_missing' });

const nullable = <T extends ReturnType<typeof Type.String> | ReturnType<typeof Type.Integer>>(schema: T, description: string) =>
  Type.Union([schema, Type.Null()], { description });

export const GatewayParams = Type.Object({ id: Id({ description: 'the gateway id' }) });
export const TokenParams = Type.Object({ token: Type.String({ pattern: '^rec_[A-Za-z0-9_-]{1,64}$', description: 'the reconciliation token (rec_…)' }) });

export const SettlementColumnsBody = Type.Object(
  { columns: Type.Union([SettlementColumnsSchema, Type.Null()], { description: 'the mapping; null removes it' }) },
  { additionalProperties: false, examples: [{ columns: SETTLEMENT_COLUMNS_EXAMPLE }] },
);

const Columns = Type.Union([SettlementColumnsSchema, Type.Null()], { description: 'null: not set yet (an import is refused)' });

export const SettlementColumnsEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    gateway: Type.Object({
      id: Type.Integer(),
      merchant_id: Type.Integer(),
      environment: Type.String(),
      alias: Type.String(),
      settlement_columns: Columns,
    }),
  },
  {
    examples: [
      { success: true, gateway: { id: 4, merchant_id: 7, environment: 'production', alias: 'acme-psp', settlement_columns: SETTLEMENT_COLUMNS_EXAMPLE } },
    ],
  },
);

const Outcome = Type.Union(
  [
    Type.Literal('matched'),
    Type.Literal('missing_in_payrail'),
    Type.Literal('missing_in_file'),
    Type.Literal('amount_mismatch'),
    Type.Literal('currency_mismatch'),
    Type.Literal('status_mismatch'),
    Type.Literal('duplicate_in_file'),
  ],
  { description: 'matched, missing_in_payrail, missing_in_file, amount_mismatch, currency_mismatch, status_mismatch or duplicate_in_file' },
);

const Summary = Type.Object(
  {
    counts: Type.Record(Type.String(), Type.Integer(), { description: 'items per outcome (every outcome, zeros included)' }),
    fees: Type.Array(
      Type.Object({
        currency: Type.String(),
        file_fee_minor: Type.Integer({ description: "the provider's fees on every line but duplicates" }),
        matched_file_fee_minor: Type.Integer({ description: "the provider's fees on the lines that found their payment" }),
        payrail_commission_minor: Type.Integer({ description: 'the commissions Payrail charged for those payments (ledger fees, reversals netted)' }),
        difference_minor: Type.Integer({ description: 'payrail_commission_minor less matched_file_fee_minor' }),
      }),
    ),
  },
  { description: 'null until the import completes' },
);

const Reconciliation = Type.Object({
  token: Type.String(),
  gateway_id: Type.Integer(),
  gateway_alias: Type.String(),
  merchant_id: Type.Integer(),
  environment: Type.String(),
  file_name: nullable(Type.String(), 'the uploaded file name, for display'),
  file_sha256: nullable(Type.String(), "the file's SHA-256 (a completed import): the same file again answers this reconciliation"),
  status: Type.Union([Type.Literal('processing'), Type.Literal('completed'), Type.Literal('failed')]),
  line_count: Type.Integer(),
  period_from: nullable(Type.String({ format: 'date-time' }), "the file's earliest date"),
  period_to: nullable(Type.String({ format: 'date-time' }), "the file's latest date (a date without time: the end of that day)"),
  summary: Type.Union([Summary, Type.Null()]),
  error: nullable(Type.String(), 'why a failed import failed'),
  created_by: nullable(Type.String(), 'the actor: admin-key, or operator:12 for an operator of the console'),
  created_at: Type.String({ format: 'date-time' }),
  completed_at: nullable(Type.String({ format: 'date-time' }), 'when it completed or failed'),
});

const RECONCILIATION_EXAMPLE = {
  token: 'rec_Q2x9vT4mK1pZ8rW3yB6nH0sd',
  gateway_id: 4,
  gateway_alias: 'acme-psp',
  merchant_id: 7,
  environment: 'production',
  file_name: 'settlement-2026-11-26.csv',
  file_sha256: '9f2c1e0b7a4d3c2b1a0f9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b',
  status: 'completed',
  line_count: 3,
  period_from: '2026-11-26T00:00:00.000Z',
  period_to: '2026-11-26T23:59:59.999Z',
  summary: {
    counts: { matched: 1, missing_in_payrail: 1, missing_in_file: 1, amount_mismatch: 1, currency_mismatch: 0, status_mismatch: 0, duplicate_in_file: 0 },
    fees: [{ currency: 'EUR', file_fee_minor: 90, matched_file_fee_minor: 60, payrail_commission_minor: 100, difference_minor: 40 }],
  },
  error: null,
  created_by: 'admin-key',
  created_at: '2026-11-27T06:00:00.000Z',
  completed_at: '2026-11-27T06:00:02.000Z',
};

export const ReconciliationEnvelope = Type.Object(
  { success: Type.Literal(true), reconciliation: Reconciliation },
  { examples: [{ success: true, reconciliation: RECONCILIATION_EXAMPLE }] },
);

export const ImportForm = Type.Object(
  {
    gatewayId: Type.String({ pattern: '^[1-9][0-9]{0,15}$', description: 'the gateway whose settlement file this is; send it BEFORE file' }),
    file: Type.String({ format: 'binary', description: 'the CSV file (header line first), at most 200 MiB; read as it streams in' }),
  },
  { description: 'multipart/form-data', examples: [{ gatewayId: '1', file: 'settlement-2026-11-26.csv' }] },
);

const Limit = Type.Integer({ minimum: 1, maximum: 100, default: 50, description: 'at most 100' });
const Cursor = Type.String({ minLength: 1, maxLength: CURSOR_LENGTH_MAX, description: 'next_cursor of the page before' });

export const ListQuery = Type.Object(
  { gatewayId: Type.Optional(Id({ description: 'only this gateway' })), cursor: Type.Optional(Cursor), limit: Limit },
  { additionalProperties: false },
);

export const ReconciliationListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    reconciliations: Type.Array(Reconciliation, { description: 'newest first' }),
    next_cursor: nullable(Type.String(), 'null: the last page'),
  },
  { examples: [{ success: true, reconciliations: [RECONCILIATION_EXAMPLE], next_cursor: null }] },
);

export const ItemsQuery = Type.Object({ outcome: Type.Optional(Outcome), cursor: Type.Optional(Cursor), limit: Limit }, { additionalProperties: false });
export const ReportQuery = Type.Object({ outcome: Type.Optional(Outcome) }, { additionalProperties: false });

const Item = Type.Object({
  item: Type.Integer({ description: "the item's number: the file's lines first, then the payments the file missed" }),
  line: nullable(Type.Integer(), 'the line of the file (1 is the header); null for missing_in_file'),
  outcome: Outcome,
  gateway_token: nullable(Type.String(), "the provider's reference"),
  file_amount_minor: nullable(Type.Integer(), 'what the file says, in minor units'),
  file_currency: nullable(Type.String(), ''),
  file_fee_minor: nullable(Type.Integer(), ''),
  file_status: nullable(Type.String(), 'the Payrail status the file’s status word means'),
  file_date: nullable(Type.String({ format: 'date-time' }), ''),
  payment_token: nullable(Type.String(), 'the Payrail payment the line found'),
  payrail_amount_minor: nullable(Type.Integer(), 'the amount Payrail sent the provider'),
  payrail_currency: nullable(Type.String(), ''),
  payrail_status: nullable(Type.String(), ''),
});

const ITEM_EXAMPLE = {
  item: 2,
  line: 3,
  outcome: 'amount_mismatch',
  gateway_token: 'psp-20261126-0002',
  file_amount_minor: 1550,
  file_currency: 'EUR',
  file_fee_minor: 30,
  file_status: 'approved',
  file_date: '2026-11-26T10:15:00.000Z',
  payment_token: '5f0c0e6c2b0b4a7c9d8e7f6a5b4c3d2e',
  payrail_amount_minor: 1500,
  payrail_currency: 'EUR',
  payrail_status: 'approved',
};

export const ItemsEnvelope = Type.Object(
  { success: Type.Literal(true), items: Type.Array(Item), next_cursor: nullable(Type.String(), 'null: the last page') },
  { examples: [{ success: true, items: [ITEM_EXAMPLE], next_cursor: '2' }] },
);
