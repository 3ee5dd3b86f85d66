// The gateway adapter contract (spec 2.8–2.10 and section 4): what the business service sends, what adapters answer.

import type { AdapterRequisites, RedirectRequest } from '../domain/adapter-answer.ts';
import type { AdapterMethod, AdapterRequests, CallbackClaims } from '@payrail/adapter-kit';
import type { GatewaySettings } from './gateway-settings.ts';

export type { AdapterMethod, AdapterRequisites, GatewaySettings, RedirectRequest };

// The requests and the answer are the adapter kit's schemas (packages/adapter-kit), one definition for Payrail and
// for adapters, method by method; Payrail's side types `settings` as the gateway settings it validates
// (gateway-settings.ts, the kit's settings narrowed).
// spec 2.8: optional fields are left out when absent, never sent as null: adapters check a key that is present.
type WithGatewaySettings<Request> = Omit<Request, 'settings'> & { settings: GatewaySettings };
export type AdapterRequestOf<Method extends AdapterMethod> = WithGatewaySettings<AdapterRequests[Method]>;

export type PayRequest = AdapterRequestOf<'pay'>;
// Section 4 /payout: amount and currency in params, the recipient's card (card payouts) or bank account; the
// merchant key and callback_url let the provider report the payout by callback (spec 5.6), as for /pay.
export type PayoutRequest = AdapterRequestOf<'payout'>;
export type StatusRequest = AdapterRequestOf<'status'>;
// Section 4 names refund without its shape; issue 8 fixes it. refund.token is the refund's identity at the adapter:
// a repeat with the same token (Payrail re-sends a refund whose answer it did not get) reports that refund, and
// never refunds twice. The answer is read like a /status answer (spec 2.9).
export type RefundRequest = AdapterRequestOf<'refund'>;
// Section 4 names confirm_request and decline_request without their shapes; issue 8 fixes them. A two-step
// payment's authorization (a /pay with params.need_confirmation) is captured, wholly or in part (payment.amount,
// never above the authorized amount), or voided (payment.amount: the authorized amount released). The answer is
// read like a /status answer (spec 2.9): approved means the capture or the void was done; a repeat of a done
// request is answered approved again.
export type ConfirmRequest = AdapterRequestOf<'confirm_request'>;
export type DeclineRequest = AdapterRequestOf<'decline_request'>;

// Section 4 names confirm_secure_code, resend_otp and next_payment_step without their shapes; issue 10 fixes them.
// A pending answer (to /pay or to one of these) may ask the customer for a secure code (secure_code_request) or for
// more data (next_step); the customer's answer goes back with these requests, and each is answered like a /pay
// (spec 2.9): approved, declined, or pending with another step or a redirect_request.
export type ConfirmSecureCodeRequest = AdapterRequestOf<'confirm_secure_code'>;
// Sends the code again; answered pending (with the secure_code_request to show, when it changed) or final.
export type ResendOtpRequest = AdapterRequestOf<'resend_otp'>;
// The fields the adapter's next_step listed, by name, as the customer filled them (optional empty ones left out);
// processing_url and callback_url as in /pay, since the answer may lead to a redirect or a later callback.
export type NextPaymentStepRequest = AdapterRequestOf<'next_payment_step'>;

// spec 5.6: claims of the provider callback JWT.
export type { CallbackClaims };
