import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';

export const ErrorEnvelope = errorEnvelopeSchema({ meaning: 'a failure: nothing was changed' });

export const StatsRebuildEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    paymentCount: Type.Integer({ minimum: 0, description: 'final payments (pays, not payouts) counted, every merchant and environment' }),
    bucketCount: Type.Integer({ minimum: 0, description: 'daily aggregate rows written (merchant, environment, day, currency, dimension, value)' }),
  },
  { examples: [{ success: true, paymentCount: 1284, bucketCount: 96 }] },
);
