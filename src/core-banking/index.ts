export { createAppToken } from './flows/app-tokens.ts';
export { reviewBankAccount } from './flows/bank-account-review.ts';
export { createBankAccount } from './flows/bank-accounts.ts';
export { createBankTransfer } from './flows/bank-transfers.ts';
export { createMoneyCharge } from './flows/money-charges.ts';
export { deleteStaleChallenges } from './store/login-challenges-repo.ts';
export { deleteEndedSessions } from './store/sessions-repo.ts';
export {
  USER_MESSAGE_ATTEMPTS_MAX,
  blankExpiredUserMessages,
  claimDueUserMessages,
  markUserMessageFailed,
  markUserMessageSent,
} from './store/user-messages-repo.ts';
export type { ClaimedUserMessage } from './store/user-messages-repo.ts';
