import Type, { type Static } from 'typebox';

// How a provider's settlement file is read (gateways.settlement_columns): which column holds what, how its amounts
// are written, and which of its status words mean which Payrail status. Saved with the gateway, checked by this
// schema on the way in (admin API) and on the way out (an import).

const COLUMN_NAME_LENGTH_MAX = 100;
export const STATUS_WORD_LENGTH_MAX = 40;
const STATUS_WORDS_MAX = 50;

// The statuses a settlement line can report; missing_in_file looks only for final payments in these statuses
// that the mapping names (a file of settled payments only maps approved and refunded, and declines are not missed).
const SETTLED_STATUSES = ['approved', 'declined', 'refunded'] as const;
export type SettledStatus = (typeof SETTLED_STATUSES)[number];

export const SETTLEMENT_COLUMNS_EXAMPLE = {
  gatewayToken: 'psp_reference',
  amount: 'gross',
  currency: 'ccy',
  fee: 'fee',
  status: 'state',
  date: 'booked_at',
  amountFormat: 'major',
  statuses: { SETTLED: 'approved', REFUSED: 'declined', REFUNDED: 'refunded' },
};

const ColumnName = (description: string) => Type.String({ minLength: 1, maxLength: COLUMN_NAME_LENGTH_MAX, pattern: '^[^\\u0000-\\u001f]*$', description });

export const SettlementColumnsSchema = Type.Object(
  {
    gatewayToken: ColumnName("the column holding the provider's reference of the payment (Payrail's gateway_token)"),
    amount: ColumnName('the column holding the amount'),
    currency: ColumnName('the column holding the ISO 4217 currency code'),
    status: ColumnName("the column holding the provider's status word"),
    date: ColumnName('the column holding the date (ISO 8601: 2026-11-27 or 2026-11-27T10:15:00Z)'),
    fee: Type.Optional(ColumnName("the column holding the provider's fee (same format as the amount); absent: no fees")),
    amountFormat: Type.Optional(
      Type.Union([Type.Literal('major'), Type.Literal('minor')], {
        description: 'major (default): 10.50 in the currency; minor: 1050 in minor units (the currency exponent decides)',
      }),
    ),
    delimiter: Type.Optional(
      Type.Union([Type.Literal(','), Type.Literal(';'), Type.Literal('\t'), Type.Literal('|')], { description: 'the field separator (default ,)' }),
    ),
    statuses: Type.Optional(
      Type.Record(Type.String(), Type.Union([Type.Literal('approved'), Type.Literal('declined'), Type.Literal('refunded')]), {
        maxProperties: STATUS_WORDS_MAX,
        description:
          "the file's status words (compared without case) and the Payrail status each means; default: approved, settled, captured, success → " +
          'approved; declined, failed, rejected → declined; refunded, refund → refunded',
      }),
    ),
  },
  {
    additionalProperties: false,
    examples: [SETTLEMENT_COLUMNS_EXAMPLE],
  },
);
export type SettlementColumns = Static<typeof SettlementColumnsSchema>;

const DEFAULT_STATUS_WORDS: Readonly<Record<string, SettledStatus>> = Object.freeze({
  approved: 'approved',
  settled: 'approved',
  captured: 'approved',
  success: 'approved',
  declined: 'declined',
  failed: 'declined',
  rejected: 'declined',
  refunded: 'refunded',
  refund: 'refunded',
});

// The status words of a mapping, lower-cased, and the Payrail statuses they name.
export function statusWordsOf(columns: SettlementColumns): ReadonlyMap<string, SettledStatus> {
  const words = Object.entries(columns.statuses ?? DEFAULT_STATUS_WORDS).map(([word, status]) => [word.trim().toLowerCase(), status] as const);
  return new Map(words);
}

// Which mapped field each file column feeds, in the order a line is read.
const MAPPED_FIELDS = ['gatewayToken', 'amount', 'currency', 'status', 'date', 'fee'] as const;
export type MappedField = (typeof MAPPED_FIELDS)[number];

// The header's position of each mapped column; a column the header lacks is the import's error, named once.
export function columnPositions(columns: SettlementColumns, header: readonly string[]): Record<MappedField, number | null> | { missing: string[] } {
  const names = header.map((name) => name.trim());
  const positions = {} as Record<MappedField, number | null>;
  const missing: string[] = [];
  for (const field of MAPPED_FIELDS) {
    const column = columns[field];
    if (column === undefined) {
      positions[field] = null;
      continue;
    }
    const position = names.indexOf(column.trim());
    if (position === -1) missing.push(column);
    positions[field] = position === -1 ? null : position;
  }
  return missing.length > 0 ? { missing } : positions;
}
