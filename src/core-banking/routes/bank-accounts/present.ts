import type { Static } from 'typebox';
import { isApproved } from '../../domain/bank-account-status.ts';
import type { ListedBankAccount } from '../../flows/bank-account-list.ts';
import type { BankAccountRow } from '../../store/bank-accounts-repo.ts';
import type { BankAccountRecord } from './schemas.ts';

// A record as spec 2.6 names its fields; the card and wallet fields only when the listing asked for them.
export function presentBankAccount(record: BankAccountRow | ListedBankAccount): Static<typeof BankAccountRecord> {
  const presented: Static<typeof BankAccountRecord> = {
    id: record.id,
    value: record.value,
    currency: record.currency,
    token: record.token,
    status: record.status,
    provider: record.provider,
    swift_code: record.swiftCode,
    uk_sort_code: record.ukSortCode,
    uk_account_number: record.ukAccountNumber,
    approved: isApproved(record.status),
    verified: record.verified,
    details: record.details,
    paymentSystem: record.paymentSystem,
    bank_address: record.bankAddress,
    bank_name: record.bankName,
    recipient_address: record.recipientAddress,
    recipient_name: record.recipientName,
    ref_code: record.refCode,
    account_holder: record.accountHolder,
    account_number: record.accountNumber,
    outer_id: record.outerId,
  };
  if ('cards' in record && record.cards !== undefined) {
    const newest = record.cards.at(-1);
    presented.bank_card_tokens = record.cards.map((card) => String(card.id));
    presented.card_id = newest?.id ?? null;
    presented.card_mask = newest?.panMask ?? null;
  }
  if ('walletAvailable' in record && record.walletAvailable !== undefined) presented.wallet = { available: record.walletAvailable };
  return presented;
}
