import type { TSchema } from 'typebox';
import {
  ConfirmRequestSchema,
  DeclineRequestSchema,
  PayoutRequestSchema,
  PayRequestSchema,
  RefundRequestSchema,
  StatusRequestSchema,
  type ConfirmRequest,
  type DeclineRequest,
  type PayoutRequest,
  type PayRequest,
  type RefundRequest,
  type StatusRequest,
} from './request-schemas.ts';
import type { AdapterMethod } from './settings-schema.ts';
import {
  ConfirmSecureCodeRequestSchema,
  NextPaymentStepRequestSchema,
  ResendOtpRequestSchema,
  type ConfirmSecureCodeRequest,
  type NextPaymentStepRequest,
  type ResendOtpRequest,
} from './step-schemas.ts';

// Every method's request schema and type, by method name.

export const REQUEST_SCHEMAS: Readonly<Record<AdapterMethod, TSchema>> = {
  pay: PayRequestSchema,
  payout: PayoutRequestSchema,
  status: StatusRequestSchema,
  refund: RefundRequestSchema,
  confirm_request: ConfirmRequestSchema,
  decline_request: DeclineRequestSchema,
  confirm_secure_code: ConfirmSecureCodeRequestSchema,
  resend_otp: ResendOtpRequestSchema,
  next_payment_step: NextPaymentStepRequestSchema,
};

export interface AdapterRequests {
  pay: PayRequest;
  payout: PayoutRequest;
  status: StatusRequest;
  refund: RefundRequest;
  confirm_request: ConfirmRequest;
  decline_request: DeclineRequest;
  confirm_secure_code: ConfirmSecureCodeRequest;
  resend_otp: ResendOtpRequest;
  next_payment_step: NextPaymentStepRequest;
}
export type AdapterRequestOf<Method extends AdapterMethod> = AdapterRequests[Method];
