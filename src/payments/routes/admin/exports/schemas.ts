import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../../platform/lib/limits.ts';

export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing is exported' });
export const RangeRefused = errorEnvelopeSchema({
  meaning: 'from or to is not an ISO 8601 date or date-time, to is not after from, or the range is longer than 366 days',
  codes: 'invalid_field',
  field: 'from or to',
});

export const AdminExportQuery = Type.Object(
  {
    from: Type.String({ minLength: 10, maxLength: 40, description: 'the first instant, included (2026-11-01 is midnight UTC)', examples: ['2026-11-01'] }),
    to: Type.String({ minLength: 10, maxLength: 40, description: 'the end, excluded; at most 366 days after from', examples: ['2026-12-01'] }),
    merchantId: Type.Optional(Id({ description: 'one merchant (default: every merchant)' })),
    environment: Type.Optional(Type.Union([Type.Literal('sandbox'), Type.Literal('production')], { description: 'one environment (default: both)' })),
  },
  { additionalProperties: false },
);

export const CsvResponse = {
  description: 'CSV (RFC 4180, CRLF), streamed; merchant_id and environment first; amounts in minor units, card numbers only masked',
  content: { 'text/csv': { schema: Type.String() } },
};
