import { itemsOfPages } from './paging.ts';
import { call, encodePath, keyOf, type TransportSettings } from './transport.ts';
import type {
  CreatedPayment,
  NextStepParams,
  NotificationAttempts,
  NotificationResent,
  PaymentConfirmParams,
  PaymentEnvelope,
  PaymentListFilters,
  PaymentListItem,
  PaymentListPage,
  PaymentCreateParams,
  RequestOptions,
  SecureCodeParams,
} from './types.ts';

const PAYMENT_PATH = '/api/v1/payments/{token}';

// /api/v1/payments: create (variants A, B, C), read, list, and the actions on one payment.
export class Payments {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  create(params: PaymentCreateParams, options: RequestOptions = {}): Promise<CreatedPayment> {
    return call(this.#settings, { method: 'POST', path: '/api/v1/payments', json: params, ...keyOf(options) });
  }

  retrieve(token: string): Promise<PaymentEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath(PAYMENT_PATH, { token }) });
  }

  // One page: `cursor` is the nextCursor of the page before (or absent for the first).
  listPage(filters: PaymentListFilters & { cursor?: string } = {}): Promise<PaymentListPage> {
    return call(this.#settings, { method: 'GET', path: '/api/v1/payments', query: filters });
  }

  // Every payment matching the filters, newest first, page after page: `for await (const payment of payrail.payments.list())`.
  list(filters: PaymentListFilters = {}): AsyncGenerator<PaymentListItem, void, undefined> {
    return itemsOfPages(
      (cursor) => this.listPage(cursor === undefined ? filters : { ...filters, cursor }),
      (page) => page.payments,
    );
  }

  // Two-step: capture an authorized payment, wholly or (with amount) in part.
  confirm(token: string, params: PaymentConfirmParams = {}, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'confirm', params, options);
  }

  // Two-step: void an authorization.
  decline(token: string, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'decline', {}, options);
  }

  // A payment nobody has paid yet.
  cancel(token: string, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'cancel', {}, options);
  }

  submitSecureCode(token: string, params: SecureCodeParams, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'secure_code', params, options);
  }

  resendSecureCode(token: string, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'resend_otp', {}, options);
  }

  submitNextStep(token: string, params: NextStepParams, options: RequestOptions = {}): Promise<PaymentEnvelope> {
    return this.#action(token, 'next_step', params, options);
  }

  #action(token: string, action: string, body: object, options: RequestOptions): Promise<PaymentEnvelope> {
    return call(this.#settings, { method: 'POST', path: `${encodePath(PAYMENT_PATH, { token })}/${action}`, json: body, ...keyOf(options) });
  }
}

// The final-status notification of a payment sent to its callbackUrl: its delivery attempts, and sending it again.
export class Notifications {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  listAttempts(paymentToken: string): Promise<NotificationAttempts> {
    return call(this.#settings, { method: 'GET', path: encodePath(`${PAYMENT_PATH}/notifications`, { token: paymentToken }) });
  }

  resend(paymentToken: string, options: RequestOptions = {}): Promise<NotificationResent> {
    return call(this.#settings, { method: 'POST', path: encodePath(`${PAYMENT_PATH}/notifications/resend`, { token: paymentToken }), ...keyOf(options) });
  }
}
