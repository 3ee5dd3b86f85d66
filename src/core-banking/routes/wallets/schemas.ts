import Type from 'typebox';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';

export const WalletQuery = Type.Object(
  { currency: Type.Optional(Type.String({ pattern: '^[A-Z]{3,4}$', description: 'that wallet alone (zero when it never moved)' })) },
  { additionalProperties: false },
);

export const WalletsEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    wallets: Type.Array(
      Type.Object({
        currency: Type.String(),
        available: Type.Number({ description: 'what the wallet holds, in major units' }),
        available_minor: Type.Integer({ description: 'the same in minor units' }),
      }),
      { description: 'one per currency that ever moved, by currency code' },
    ),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        wallets: [
          { currency: 'EUR', available: 87.5, available_minor: 8750 },
          { currency: 'GBP', available: 376.25, available_minor: 37625 },
        ],
      },
    ],
  },
);

export const ProfileDisabled = coreErrorEnvelopeSchema({ meaning: "the session's profile is disabled", codes: 'profile_disabled' });

export const CoreErrorEnvelope = coreErrorEnvelopeSchema({
  meaning: 'a failure',
  codes: 'session_required, session_invalid, session_expired, session_revoked (401); profile_disabled (403); invalid_field (422); rate_limited (429)',
});
