import { jsonColumnCheck } from '../../platform/lib/json-column-check.ts';
import { BankAccountDetailsSchema, CardDeliverySchema } from '../domain/stored-json.ts';

// Core banking's JSON columns, each checked against the schema that types it before it is written.
export const checkBankAccountDetails = jsonColumnCheck('bank_accounts.details', BankAccountDetailsSchema);
export const checkCardDelivery = jsonColumnCheck('bank_cards.delivery', CardDeliverySchema);
