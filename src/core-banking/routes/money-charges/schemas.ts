import Type from 'typebox';
import { MONEY_CHARGE_STATUSES } from '../../domain/core-banking-values.ts';
import { CHARGE_DESCRIPTION_LENGTH_MAX, CHARGE_PAGE_MAX, CHARGE_PAGE_SIZE, MONEY_CHARGE_PRIVACIES } from '../../domain/money-charges.ts';
import { WALLET_AMOUNT_MINOR_MAX } from '../../domain/wallet-postings.ts';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';
import { EMAIL_LENGTH_MAX, Id } from '../../../platform/lib/limits.ts';

const chargeId = Id({ description: "the money charge's id" });
const privacy = (options: { description: string; default?: string }) => Type.Enum(MONEY_CHARGE_PRIVACIES, options);

export const CreateChargeBody = Type.Object(
  {
    // The string form comes first: a phone such as +447700900123 must stay text, not be read as a number.
    payer: Type.Union([Type.String({ minLength: 1, maxLength: EMAIL_LENGTH_MAX }), Id()], {
      description: "who is asked to pay: another person's profile id, e-mail address, or phone number in international form (+ and digits)",
    }),
    amount: Type.Number({
      exclusiveMinimum: 0,
      description: `major units; no more decimals than the currency has; at most ${WALLET_AMOUNT_MINOR_MAX} minor units`,
    }),
    currency: Type.String({ pattern: '^[A-Z]{3,4}$', description: 'an ISO 4217 code or a configured code' }),
    description: Type.String({ maxLength: CHARGE_DESCRIPTION_LENGTH_MAX, default: '', description: 'what the money is for' }),
    privacy: privacy({ default: 'private', description: 'who may see the charge besides its two parties' }),
  },
  {
    additionalProperties: false,
    examples: [{ payer: 'alan@example.com', amount: 12.5, currency: 'GBP', description: 'Dinner on Friday', privacy: 'private' }],
  },
);

export const ChargeListQuery = Type.Object(
  {
    role: Type.Optional(Type.Enum(['payer', 'requester'], { description: 'payer: charges addressed to you; requester: charges you sent; absent: both' })),
    status: Type.Optional(Type.Enum(MONEY_CHARGE_STATUSES)),
    page: Type.Integer({ minimum: 1, maximum: CHARGE_PAGE_MAX, default: 1, description: `${CHARGE_PAGE_SIZE} charges per page, newest first` }),
  },
  { additionalProperties: false },
);

// The examples' ids are the demo seed's: #1 and #2 ask the demo person for money, #3 is the one the create example sends.
export const ChargeIdBody = Type.Object({ id: chargeId }, { additionalProperties: false, examples: [{ id: 1 }] });
export const CancelChargeBody = Type.Object({ id: chargeId }, { additionalProperties: false, examples: [{ id: 3 }] });

// spec 4: decline takes id (required) and privacy.
export const DeclineChargeBody = Type.Object(
  { id: chargeId, privacy: Type.Optional(privacy({ description: "the declined charge's privacy from now on" })) },
  { additionalProperties: false, examples: [{ id: 2, privacy: 'private' }] },
);

const Charge = Type.Object({
  id: Type.Integer(),
  role: Type.String({ description: 'your side of the charge: payer or requester' }),
  requester_id: Type.Integer({ description: 'the profile asking for the money' }),
  payer_id: Type.Integer({ description: 'the profile asked to pay' }),
  amount: Type.Number({ description: 'major units' }),
  amount_minor: Type.Integer({ description: 'minor units of the currency' }),
  currency: Type.String(),
  description: Type.String(),
  privacy: Type.String(),
  status: Type.String({ description: 'pending, paid, declined or cancelled' }),
  created_at: Type.String({ format: 'date-time' }),
  resolved_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'when it stopped being pending' }),
});

const CHARGE_EXAMPLE = {
  id: 88,
  role: 'requester',
  requester_id: 42,
  payer_id: 43,
  amount: 12.5,
  amount_minor: 1250,
  currency: 'EUR',
  description: 'Dinner on Friday',
  privacy: 'private',
  status: 'pending',
  created_at: '2025-01-15T19:30:00.000Z',
  resolved_at: null,
};

export const ChargeEnvelope = Type.Object(
  { success: Type.Literal(true), status: Type.Literal(200), charge: Charge },
  { examples: [{ success: true, status: 200, charge: CHARGE_EXAMPLE }] },
);

export const ChargeListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    charges: Type.Array(Charge),
    page: Type.Integer(),
    per_page: Type.Integer(),
    has_more: Type.Boolean({ description: 'true when the next page has charges' }),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        charges: [{ ...CHARGE_EXAMPLE, role: 'payer', status: 'paid', resolved_at: '2025-01-16T08:00:00.000Z' }],
        page: 1,
        per_page: 20,
        has_more: false,
      },
    ],
  },
);

export const DoneEnvelope = Type.Object({ success: Type.Literal(true), status: Type.Literal(200) }, { examples: [{ success: true, status: 200 }] });

export const ProfileDisabled = coreErrorEnvelopeSchema({ meaning: "the session's profile is disabled", codes: 'profile_disabled' });

export const ChargeNotFound = coreErrorEnvelopeSchema({
  meaning: 'no money charge has this id, or you may not act on it (only the payer pays or declines; only the requester cancels)',
  codes: 'not_found',
});

export const ChargeNotPending = coreErrorEnvelopeSchema({
  meaning: 'the money charge is paid, declined or cancelled already: nothing was changed',
  codes: 'charge_not_pending',
});

export const ChargeRefused = coreErrorEnvelopeSchema({
  meaning: 'a field is not valid, the amount does not fit the currency, or the payer is unknown, yourself or not an active person: no charge was made',
  codes: 'invalid_field, unknown_field, too_many_decimals, invalid_amount, amount_too_large, payer_not_found',
});

export const PaymentRefused = coreErrorEnvelopeSchema({
  meaning: 'the body is not valid, or your wallet in the charge currency holds less than the amount: the charge stays pending',
  codes: 'invalid_field, unknown_field, insufficient_funds',
});

export const CoreErrorEnvelope = coreErrorEnvelopeSchema({
  meaning: 'a failure; the charge is unchanged',
  codes:
    'session_required, session_invalid, session_expired, session_revoked (401); profile_disabled (403); not_found (404: missing, or not yours); ' +
    'charge_not_pending (409); invalid_field, unknown_field, too_many_decimals, invalid_amount, amount_too_large, payer_not_found, insufficient_funds (422); rate_limited (429)',
});
