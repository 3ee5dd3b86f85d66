// The fixed value lists of the core banking records (spec 2.6, 2.7): the database's CHECK constraints, the API
// schemas and the domain rules all read them from here.

export const PROFILE_KINDS = ['person', 'business'] as const; // a business (segregated) account has members, no password

export const WALLET_TYPES = ['personal', 'business'] as const;
export type WalletType = (typeof WALLET_TYPES)[number];

export const KYC_STATUSES = ['not_started', 'pending', 'approved', 'rejected'] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const MEMBERSHIP_ROLES = ['owner', 'member'] as const;
export type MembershipRole = (typeof MEMBERSHIP_ROLES)[number];

export const BANK_ACCOUNT_STATUSES = ['pending', 'pending_request', 'approved', 'declined', 'closed'] as const;
export type BankAccountStatus = (typeof BANK_ACCOUNT_STATUSES)[number];

// spec 2.6: five kinds of record, and four values naming external banking providers (the spec leaves their names
// out; these are Payrail's names for the four partner rails an operator connects).
export const BANK_ACCOUNT_PROVIDERS = [
  'default',
  'beneficiary',
  'iban',
  'cup',
  'card',
  'sepa_partner',
  'swift_partner',
  'faster_payments_partner',
  'card_issuer',
] as const;
export type BankAccountProvider = (typeof BANK_ACCOUNT_PROVIDERS)[number];

export const TRANSFER_DIRECTIONS = ['credit', 'debit'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

export const MONEY_CHARGE_STATUSES = ['pending', 'paid', 'declined', 'cancelled'] as const;
export type MoneyChargeStatus = (typeof MONEY_CHARGE_STATUSES)[number];

export const BANK_CARD_TYPES = ['virtual', 'physical'] as const;
export type BankCardType = (typeof BANK_CARD_TYPES)[number];

export const BANK_CARD_STATUSES = ['active', 'rejected', 'blocked', 'closed'] as const;

export const USER_MESSAGE_CHANNELS = ['log', 'email'] as const;
export type UserMessageChannel = (typeof USER_MESSAGE_CHANNELS)[number];
