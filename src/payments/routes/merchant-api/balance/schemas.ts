import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { balanceExample, balanceOfCurrencyExample } from '../examples.ts';

export const BalanceQuery = Type.Object(
  {
    currency: Type.Optional(
      Type.String({
        pattern: '^[A-Z]{3,4}$',
        description: 'one wallet only: an ISO 4217 code (3 upper-case letters) or a configured code such as USDT',
      }),
    ),
  },
  { additionalProperties: false },
);

const amount = (description: string) => Type.Integer({ description: `${description}, in minor units of the currency` });

const Wallet = Type.Object({
  currency: Type.String(),
  available: amount('what the merchant may pay out or refund; below zero only when a provider took back an approved payment'),
  hold: amount('reserved for payouts, refunds and disputes that are not settled yet'),
});

const WalletsEnvelope = Type.Object({
  success: Type.Literal(true),
  result: Type.Literal(0),
  status: Type.Literal(200),
  wallets: Type.Array(Wallet, { description: 'one per currency that ever moved in this environment, by currency code' }),
});

const WalletEnvelope = Type.Object({
  success: Type.Literal(true),
  result: Type.Literal(0),
  status: Type.Literal(200),
  wallet: Type.Object(
    { available: Wallet.properties.available, hold: Wallet.properties.hold, currency: Type.String() },
    { description: 'zeros when the currency never moved' },
  ),
});

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure',
  codes: 'machine-readable: unauthorized, merchant_disabled, invalid_field, unknown_field, rate_limited, …',
});

export const BalanceEnvelope = Type.Union([WalletsEnvelope, WalletEnvelope], { examples: [balanceExample, balanceOfCurrencyExample] });
