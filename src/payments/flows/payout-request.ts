import type { GatewaySettings, PayoutRequest } from '../contract/adapter-contract.ts';
import type { CustomerInput } from '../domain/payment-request.ts';
import { payoutStatusUrl, providerCallbackUrl } from '../domain/public-urls.ts';
import { withoutAbsent } from '../../platform/lib/without-absent.ts';
import type { PaymentRow } from '../store/payments-repo.ts';

// A payout-create request of spec 2.4, validated and normalized by the merchant API.
export type PayoutRequisiteType = 'card' | 'sbp' | 'account';

interface PayoutCustomer {
  email: string;
  ip: string | null;
  firstName: string | null;
  lastName: string | null;
  middleName: string | null;
  phone: string | null;
}

interface PayoutBankAccount {
  requisiteType: PayoutRequisiteType;
  bankName: string | null; // required for sbp and account
  accountNumber: string | null; // required for account
}

export interface CreatePayoutRequest {
  amountMinor: number;
  currency: string;
  orderNumber: string;
  callbackUrl: string;
  bankAccount: PayoutBankAccount;
  panDigits: string | null; // the recipient's card (card payouts): kept in memory for the /payout call only
  customer: PayoutCustomer;
}

// The stored customer: the payment's shape (so a payout reads like any payment), plus its middle name.
export type StoredPayoutCustomer = CustomerInput & { middleName: string | null };

export function storedPayoutCustomer(customer: PayoutCustomer): StoredPayoutCustomer {
  return {
    email: customer.email,
    firstName: customer.firstName,
    lastName: customer.lastName,
    middleName: customer.middleName,
    address: null,
    country: null,
    city: null,
    region: null,
    postcode: null,
    phone: customer.phone,
    ip: customer.ip,
    browser: null,
  };
}

type SentPayout = Pick<
  PaymentRow,
  'id' | 'token' | 'locale' | 'amountMinor' | 'currency' | 'gatewayAmountMinor' | 'gatewayCurrency' | 'orderNumber' | 'customer' | 'bankAccount'
>;

// Section 4 /payout. Optional fields without a value are left out, never sent as null; the customer's IP is the
// caller's when the merchant gave none (spec 2.8 requires one).
export function buildPayoutRequest(
  publicUrl: string,
  payout: SentPayout,
  settings: GatewaySettings,
  merchantKey: string,
  panDigits: string | null,
  clientIp: string | null,
): PayoutRequest {
  const { customer, bankAccount } = payout;
  // A payout is stored with both (payouts-repo insertPayout): a row without them is a defect, not a request to send.
  if (customer === null || bankAccount === null || bankAccount.requisiteType === null) throw new Error(`payout ${payout.id} has no recipient`);
  return {
    method_name: 'payout',
    params: {
      amount: payout.gatewayAmountMinor,
      currency: payout.gatewayCurrency,
      customer: {
        email: customer.email,
        ip: customer.ip ?? clientIp ?? '127.0.0.1',
        ...withoutAbsent({ first_name: customer.firstName, last_name: customer.lastName, middle_name: customer.middleName ?? null, phone: customer.phone }),
      },
      ...(panDigits === null ? {} : { card: { pan: panDigits } }),
      bank_account: {
        requisite_type: bankAccount.requisiteType,
        // The recipient's bank goes as bank_code (spec 2.8) and as bank_name, the key public adapters read.
        ...withoutAbsent({ account_number: bankAccount.accountNumber, bank_code: bankAccount.bankName, bank_name: bankAccount.bankName }),
      },
    },
    payment: {
      token: payout.token,
      merchant_private_key: merchantKey,
      gateway_amount: payout.gatewayAmountMinor,
      gateway_currency: payout.gatewayCurrency,
      lead_id: payout.id,
      ...withoutAbsent({ order_number: payout.orderNumber }),
    },
    settings,
    // spec 2.8: every method carries processing_url; a payout's is the page its create answer gave as processingUrl
    processing_url: payoutStatusUrl(publicUrl, payout),
    callback_url: providerCallbackUrl(publicUrl, payout.token),
  };
}
