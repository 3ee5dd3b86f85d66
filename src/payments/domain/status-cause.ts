// Why a payment's status moved, recorded with each move (store/tables-status-changes.ts): a closed set, one name
// per source of a move. A flow passes the one it knows; a flow shared by several sources is told by its caller.
export const STATUS_CAUSES = [
  'api', // the merchant's request (merchant API or dashboard: they call the same flows), and every payment's creation
  'adapter', // the adapter's answer to our own request: /pay, /payout, a step, confirm_request or decline_request, /refund
  'callback', // a provider's callback
  'status_check', // the status checker's lookup (a payment's /status, a refund's check)
  'expiry', // the end of a payment's lifetime, or of an authorization's hold (its void)
  'operator', // an operator's act: a conflict accepted
  'customer', // the customer on the hosted page: card data or a bank account submitted, a saved card's charge confirmed
  'system', // none of those: Payrail's own rule (a test card refused in production)
] as const;
export type StatusCause = (typeof STATUS_CAUSES)[number];

// The customer's act on the hosted page (card data or a bank account submitted, a saved card's charge confirmed):
// neither the merchant's request nor an adapter's answer.
export const CUSTOMER_CAUSE: StatusCause = 'customer';
