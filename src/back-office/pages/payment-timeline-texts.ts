import type { HistoryCause } from '../../payments/index.ts';

// The words of a payment's timeline page (English), the same for the merchant's dashboard and the operator console;
// the few that depend on who reads them in TIMELINE_PERSPECTIVE_TEXTS.
export const timelineTexts = {
  following: 'This payment is not final yet: this part follows it as it moves.',
  orderNumber: 'Order number',
  columnCreated: 'Created',
  columnToken: 'Token',
  columnKind: 'Kind',
  columnProduct: 'Product',
  columnStatus: 'Status',
  columnAmount: 'Amount',
  kindPay: 'Payment',
  kindPayout: 'Payout',
  timelineTitle: (token: string) => `Payment ${token.slice(0, 8)}…`,
  back: 'All payments',
  summaryHeading: 'Summary',
  actionsHeading: 'Actions',
  refundable: 'Refundable now',
  captured: 'Captured',
  refunded: 'Refunded or being refunded',
  card: 'Card',
  customer: 'Customer e-mail',
  declineReason: 'Decline reason',
  gateway: 'Gateway',
  authorizedUntil: 'Authorization held until',
  inFlight: 'With the gateway now',
  statusChangesHeading: 'Status changes',
  noStatusChanges: 'No status change is recorded.',
  inferredHistory:
    'This payment was made before Payrail recorded each status change: the changes marked “inferred” are read back from its notifications and gateway exchanges, and their causes guessed.',
  inferred: 'inferred',
  refundsHeading: 'Refunds',
  noRefunds: 'No refunds.',
  disputesHeading: 'Disputes',
  noDisputes: 'No disputes.',
  conflictsHeading: 'Conflicts',
  conflictsIntro: 'Reports of the provider that contradicted a final status; an operator accepts or dismisses each.',
  noConflicts: 'No conflicts.',
  noNotifications: 'No notification queued: one is sent when the payment reaches a final status.',
  attemptsHeading: 'Delivery attempts',
  noAttempts: 'No delivery attempt yet.',
  resend: 'Resend the notification',
  resendConfirm: 'Send the final-status notification to the callback URL again?',
  exchangesHeading: 'Gateway exchanges',
  exchangesIntro: 'Every request to the gateway and its answer, card numbers masked and secrets removed.',
  noExchanges: 'No exchange with a gateway.',
  postingsHeading: 'Ledger postings',
  showExchange: 'Request and answer',
  columnTime: 'Time',
  columnWhat: 'What',
  columnDuration: 'Duration',
  columnEvent: 'Event',
  columnTold: 'Status told',
  columnDelivery: 'Delivery',
  columnNextTry: 'Next try',
  columnAttempt: 'Attempt',
  columnAnswer: 'Answer',
  columnAccount: 'Entries',
  columnReason: 'Reason',
  columnResolution: 'Resolution',
  delivered: 'delivered',
  deliveryOpen: (attempts: number) => `${attempts} attempt${attempts === 1 ? '' : 's'}, not delivered yet`,
  deliveryGaveUp: 'not delivered',
} as const;

export type TimelinePerspective = 'merchant' | 'operator';

export const TIMELINE_PERSPECTIVE_TEXTS: Readonly<Record<TimelinePerspective, { notificationsHeading: string; noPostings: string }>> = {
  merchant: {
    notificationsHeading: 'Notifications to your callback URL',
    noPostings: 'Nothing was posted to your balance for this payment.',
  },
  operator: {
    notificationsHeading: 'Notifications to the merchant’s callback URL',
    noPostings: 'Nothing was posted to the merchant’s balance for this payment.',
  },
};

// The recorded causes (payments domain/status-cause.ts STATUS_CAUSES), then those only an inferred history names.
export const CAUSE_LABELS: Readonly<Record<HistoryCause, string>> = {
  api: 'API',
  adapter: 'adapter answer',
  callback: 'callback',
  status_check: 'status check',
  expiry: 'expiry',
  operator: 'operator',
  customer: 'customer', // the customer on the payment page
  system: 'Payrail', // Payrail's own rule
  payment_page: 'customer, on the payment page',
  gateway_answer: 'gateway’s answer',
  customer_step: 'customer’s code or next step',
  merchant: 'merchant (API or dashboard)',
  refund: 'refunds',
  unrecorded: 'not recorded',
};

// Log kinds of the adapter exchanges (spec 2.9) as the timeline names them; others show their kind.
export const EXCHANGE_LABELS: Readonly<Record<string, string>> = {
  pay: 'Payment request',
  payout: 'Payout request',
  status: 'Status check',
  callback: 'Provider callback',
  callback_rejected: 'Provider callback, refused',
  refund: 'Refund',
  confirm_request: 'Capture',
  decline_request: 'Void',
  confirm_secure_code: 'Secure code',
  resend_otp: 'Secure code sent again',
  next_payment_step: 'Next step',
  status_failed: 'Status check failed',
  amount_ignored: 'Amount reported, ignored',
  authorization_void: 'Automatic void',
  authorization_void_retry: 'Void to retry',
  payout_request_error: 'Payout request error',
};
