import Type, { type Static } from 'typebox';

// The JSON core banking keeps: the columns' types (store/tables-accounts.ts) and what their writers check.

// bank_accounts.details: the beneficiary's further fields, as bank-account-rules.ts checked and normalized them.
export const BankAccountDetailsSchema = Type.Record(Type.String(), Type.Unknown());
export type BankAccountDetails = Static<typeof BankAccountDetailsSchema>;

// bank_cards.delivery: where a physical card is sent, each attribute trimmed text (flows/bank-cards.ts).
export const CardDeliverySchema = Type.Record(Type.String(), Type.String());
export type CardDelivery = Static<typeof CardDeliverySchema>;
