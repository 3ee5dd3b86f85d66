import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';

export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing is exported' });
export const RangeRefused = errorEnvelopeSchema({
  meaning: 'from or to is not an ISO 8601 date or date-time, to is not after from, or the range is longer than 366 days',
  codes: 'invalid_field',
  field: 'from or to',
});

const Instant = (description: string) =>
  Type.String({ minLength: 10, maxLength: 40, description, examples: description.startsWith('the first') ? ['2026-11-01'] : ['2026-12-01'] });

export const ExportQuery = Type.Object(
  {
    from: Instant('the first instant, included: 2026-11-01 (midnight UTC) or 2026-11-01T00:00:00+01:00'),
    to: Instant('the end, excluded; at most 366 days after from'),
  },
  { additionalProperties: false },
);

// exportPaymentsCsv, exportLedgerEntriesCsv, …
export function operationIdOf(prefix: string, kind: string): string {
  return `${prefix}${kind.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase())}Csv`;
}
export const CsvResponse = {
  description:
    'CSV (RFC 4180, CRLF), streamed; amounts in minor units, card numbers only masked; text fields a spreadsheet would read as formulas start with an apostrophe',
  content: { 'text/csv': { schema: Type.String() } },
};
