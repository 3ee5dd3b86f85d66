export { createAppToken } from './flows/app-tokens.ts';
export { reviewBankAccount } from './flows/bank-account-review.ts';
export { createBankAccount } from './flows/bank-accounts.ts';
export { createBankTransfer } from './flows/bank-transfers.ts';
export { createMoneyCharge } from './flows/money-charges.ts';
export { deleteEndedSignInRecords } from './flows/sign-in-housekeeping.ts';
export { USER_MESSAGE_ATTEMPTS_MAX, claimUserMessages, queueUserMessage, recordUserMessageFailed, recordUserMessageSent } from './flows/user-message-outbox.ts';
export type { ClaimedUserMessage } from './flows/user-message-outbox.ts';
