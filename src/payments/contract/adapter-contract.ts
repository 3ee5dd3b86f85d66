// The gateway adapter contract (spec 2.8–2.10 and section 4): what the business service sends, what adapters answer.

import type { AdapterLog, AdapterRequisites, AdapterStatus, RedirectRequest } from '../domain/adapter-answer.ts';
import type {
  AdapterResponse as KitAdapterResponse,
  CallbackClaims,
  ConfirmRequest as KitConfirmRequest,
  DeclineRequest as KitDeclineRequest,
  PayoutRequest as KitPayoutRequest,
  PayRequest as KitPayRequest,
  RefundRequest as KitRefundRequest,
  StatusRequest as KitStatusRequest,
} from '../../../packages/adapter-kit/src/index.ts';
import type { GatewaySettings } from './gateway-settings.ts';

export type { AdapterLog, AdapterRequisites, AdapterStatus, GatewaySettings, RedirectRequest };

export type AdapterMethod =
  | 'pay'
  | 'payout'
  | 'status'
  | 'refund'
  | 'confirm_request'
  | 'decline_request'
  | 'confirm_secure_code'
  | 'resend_otp'
  | 'next_payment_step';

// The requests and the answer are the adapter kit's schemas (packages/adapter-kit), one definition for Payrail and
// for adapters; Payrail's side types `settings` as the gateway settings it validates (gateway-settings.ts).
// spec 2.8: optional fields are left out when absent, never sent as null: adapters check a key that is present.
type WithGatewaySettings<Request> = Omit<Request, 'settings'> & { settings: GatewaySettings };

export type PayRequest = WithGatewaySettings<KitPayRequest>;
// Section 4 /payout: amount and currency in params, the recipient's card (card payouts) or bank account; the
// merchant key and callback_url let the provider report the payout by callback (spec 5.6), as for /pay.
export type PayoutRequest = WithGatewaySettings<KitPayoutRequest>;
export type StatusRequest = WithGatewaySettings<KitStatusRequest>;
// Section 4 names refund without its shape; issue 8 fixes it. refund.token is the refund's identity at the adapter:
// a repeat with the same token (Payrail re-sends a refund whose answer it did not get) reports that refund, and
// never refunds twice. The answer is read like a /status answer (spec 2.9).
export type RefundRequest = WithGatewaySettings<KitRefundRequest>;
// Section 4 names confirm_request and decline_request without their shapes; issue 8 fixes them. A two-step
// payment's authorization (a /pay with params.need_confirmation) is captured, wholly or in part (payment.amount,
// never above the authorized amount), or voided (payment.amount: the authorized amount released). The answer is
// read like a /status answer (spec 2.9): approved means the capture or the void was done; a repeat of a done
// request is answered approved again.
export type ConfirmRequest = WithGatewaySettings<KitConfirmRequest>;
export type DeclineRequest = WithGatewaySettings<KitDeclineRequest>;

// Section 4 names confirm_secure_code, resend_otp and next_payment_step without their shapes; issue 10 fixes them.
// A pending answer (to /pay or to one of these) may ask the customer for a secure code (secure_code_request) or for
// more data (next_step); the customer's answer goes back with these requests, and each is answered like a /pay
// (spec 2.9): approved, declined, or pending with another step or a redirect_request.
interface StepPayment {
  token: string;
  gateway_token?: string; // the provider's transaction id, once the adapter gave one
}

export interface ConfirmSecureCodeRequest {
  method_name: 'confirm_secure_code';
  payment: StepPayment;
  params: { code: string };
  settings: GatewaySettings;
}

// Sends the code again; answered pending (with the secure_code_request to show, when it changed) or final.
export interface ResendOtpRequest {
  method_name: 'resend_otp';
  payment: StepPayment;
  settings: GatewaySettings;
}

// The fields the adapter's next_step listed, by name, as the customer filled them (optional empty ones left out);
// processing_url and callback_url as in /pay, since the answer may lead to a redirect or a later callback.
export interface NextPaymentStepRequest {
  method_name: 'next_payment_step';
  payment: StepPayment;
  params: { fields: Record<string, string> };
  settings: GatewaySettings;
  processing_url: string;
  callback_url: string;
}

// spec 2.9 (issue 10): a pending answer asks for a secure code with this…
export interface SecureCodeRequestWire {
  length?: number; // 4..8: the code's exact number of letters or digits; absent: 1 to 16
  kind?: 'otp' | 'sms' | 'email' | 'app'; // how the customer got it; default otp
  message?: string; // shown above the code input, at most 500 characters
  resend_allowed?: boolean; // default true: the page offers "send again" (resend_otp)
  attempts_left?: number; // 0..100, as the provider counts; 0 ends the code entry
}

// …or for more data with this: up to 10 fields the page shows as a form and Payrail checks before sending.
export interface NextStepWire {
  message?: string;
  fields: Array<{
    name: string; // a letter, then letters, digits or _ (up to 64)
    label: string;
    type?: 'text' | 'tel' | 'email' | 'select'; // default text
    options?: Array<string | { value: string; label: string }>; // select only: 1 to 50
    pattern?: string; // a JavaScript pattern the whole value must match (unicode mode), at most 200 characters
    max_length?: number; // 1..256, default 256
    required?: boolean; // default true
  }>;
}

// spec 2.9: what an adapter may answer (HTTP 200 always; the outcome is in the body). Every key optional: Payrail
// reads an answer it does not trust (domain/adapter-outcome.ts), and builds partial ones.
export type AdapterResponse = Partial<KitAdapterResponse>;

// spec 5.6: claims of the provider callback JWT.
export type { CallbackClaims };
