import { ApiError, type ErrorItem } from '../../platform/lib/errors.ts';
import { PAYMENT_STATUSES, type PaymentStatus } from './payment-status.ts';

// What a person looking for one payment knows of it, beside the list filters of GET /api/v1/payments (the merchant
// dashboard's search): its token, its customer's e-mail, the last four digits of its card, its status. Each narrows
// the list further; absent ones do not.
export interface PaymentSearch {
  token: string | null; // 32 lowercase hex
  customerEmail: string | null; // compared without regard to case
  cardLast4: string | null; // four digits
  status: PaymentStatus | null;
}

const TOKEN_PATTERN = /^[0-9a-f]{32}$/;
const LAST4_PATTERN = /^[0-9]{4}$/;
const EMAIL_LENGTH_MAX = 254; // the create schema's customer.email limit

export interface PaymentSearchText {
  token?: string;
  customerEmail?: string;
  cardLast4?: string;
  status?: string;
}

// The search as typed into a form (blank: not searched), or a 422 naming each field that cannot match anything.
export function readPaymentSearch(text: PaymentSearchText): PaymentSearch {
  const problems: ErrorItem[] = [];
  const token = blankToNull(text.token)?.toLowerCase() ?? null;
  if (token !== null && !TOKEN_PATTERN.test(token)) problems.push(problem('token', 'a payment token is 32 hexadecimal characters'));
  const customerEmail = blankToNull(text.customerEmail);
  if (customerEmail !== null && (customerEmail.length > EMAIL_LENGTH_MAX || !customerEmail.includes('@'))) {
    problems.push(problem('customerEmail', `an e-mail address has an @ and at most ${EMAIL_LENGTH_MAX} characters`));
  }
  const cardLast4 = blankToNull(text.cardLast4);
  if (cardLast4 !== null && !LAST4_PATTERN.test(cardLast4)) problems.push(problem('cardLast4', 'the last four digits of the card number'));
  const statusText = blankToNull(text.status);
  const status = statusText === null ? null : (PAYMENT_STATUSES.find((known) => known === statusText) ?? null);
  if (statusText !== null && status === null) problems.push(problem('status', `one of ${PAYMENT_STATUSES.join(', ')}`));
  if (problems.length > 0) throw new ApiError('invalid_field', 422, 'the search cannot match any payment', problems);
  return { token, customerEmail, cardLast4, status };
}

function blankToNull(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

function problem(field: string, message: string): ErrorItem {
  return { code: 'invalid_field', field, message };
}
