import Type from 'typebox';
import { TRANSFER_DIRECTIONS } from '../../domain/core-banking-values.ts';
import { WALLET_AMOUNT_MINOR_MAX } from '../../domain/wallet-postings.ts';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../platform/lib/limits.ts';

const id = (description: string) => Id({ description });

// spec 4: POST /api/v2/banking/transfers, every field required.
export const TransferBody = Type.Object(
  {
    profile_id: id('the profile whose wallet moves'),
    amount: Type.Number({
      exclusiveMinimum: 0,
      description: `major units (10.5 is 10.50 EUR); no more decimals than the currency has; at most ${WALLET_AMOUNT_MINOR_MAX} minor units`,
    }),
    currency: Type.String({ pattern: '^[A-Z]{3,4}$', description: 'an ISO 4217 code or a configured code; the bank account is in it' }),
    direction: Type.Enum(TRANSFER_DIRECTIONS, {
      description: 'credit: the bank paid into the wallet; debit: the wallet pays out to the bank (never beyond what it holds)',
    }),
    provider: Type.String({ pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,63}$', description: 'the bank or provider that moved the money, 1..64 characters' }),
    token: Type.String({
      pattern: '^[A-Za-z0-9._:-]{1,128}$',
      description: 'the external operation token: a retry with the same token and body answers the same transfer; another body, 422 token_reused',
    }),
    bank_account_id: id("one of the profile's approved bank accounts, in the transfer's currency"),
  },
  {
    additionalProperties: false,
    examples: [
      {
        profile_id: 1,
        amount: 250.75,
        currency: 'GBP',
        direction: 'credit',
        provider: 'faster_payments_partner',
        token: 'fps-20250115-000123',
        bank_account_id: 1,
      },
    ],
  },
);

const Transfer = Type.Object({
  id: Type.Integer(),
  token: Type.String(),
  profile_id: Type.Integer(),
  bank_account_id: Type.Integer(),
  direction: Type.String({ description: 'credit or debit' }),
  amount: Type.Number({ description: 'major units' }),
  amount_minor: Type.Integer({ description: 'minor units of the currency' }),
  currency: Type.String(),
  provider: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
});

const Wallet = Type.Object({
  currency: Type.String(),
  available: Type.Number({ description: 'what the wallet holds now, in major units' }),
  available_minor: Type.Integer({ description: 'the same in minor units' }),
});

export const TransferEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    transfer: Transfer,
    wallet: Wallet,
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        transfer: {
          id: 501,
          token: 'fps-20250115-000123',
          profile_id: 42,
          bank_account_id: 1,
          direction: 'credit',
          amount: 250.75,
          amount_minor: 25075,
          currency: 'GBP',
          provider: 'faster_payments_partner',
          created_at: '2025-01-15T11:20:00.000Z',
        },
        wallet: { currency: 'GBP', available: 376.25, available_minor: 37625 },
      },
    ],
  },
);

export const AppTokenRefused = coreErrorEnvelopeSchema({
  meaning: 'header app-token is missing, unknown or revoked',
  codes: 'app_token_required, app_token_invalid, app_token_revoked',
});

export const ProfileNotFound = coreErrorEnvelopeSchema({
  meaning: 'no active profile has this profile_id: nothing was transferred',
  codes: 'profile_not_found',
});

export const TransferRefused = coreErrorEnvelopeSchema({
  meaning:
    "a field is not valid, the amount does not fit the currency, the bank account is not the profile's, not approved or in another currency, the token was used with another body, or a debit exceeds the wallet: nothing was transferred",
  codes:
    'invalid_field, unknown_field, too_many_decimals, invalid_amount, amount_too_large, bank_account_not_found, bank_account_currency_mismatch, bank_account_not_approved, token_reused, insufficient_funds',
});

export const CoreErrorEnvelope = coreErrorEnvelopeSchema({
  meaning: 'a failure; nothing was transferred',
  codes:
    'app_token_required, app_token_invalid, app_token_revoked (401); profile_not_found (404); invalid_field, unknown_field, too_many_decimals, ' +
    'invalid_amount, amount_too_large, bank_account_not_found, bank_account_currency_mismatch, bank_account_not_approved, token_reused, insufficient_funds (422); rate_limited (429)',
});
