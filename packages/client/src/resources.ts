import { call, encodePath, keyOf, type TransportSettings } from './transport.ts';
import type {
  Balance,
  BalanceQuery,
  CreatedPayout,
  CreatedRefund,
  PaymentEnvelope,
  PayoutCreateParams,
  RefundCreateParams,
  RefundEnvelope,
  RequestOptions,
} from './types.ts';

// /api/v1/refunds: a refund of an approved payment, wholly or (with amount) in part.
export class Refunds {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  create(params: RefundCreateParams, options: RequestOptions = {}): Promise<CreatedRefund> {
    return call(this.#settings, { method: 'POST', path: '/api/v1/refunds', json: params, ...keyOf(options) });
  }

  retrieve(refundToken: string): Promise<RefundEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath('/api/v1/refunds/{token}', { token: refundToken }) });
  }
}

// /api/v1/payouts. A payout is a payment of operation_type payout: it is read (and listed) as a payment.
export class Payouts {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  create(params: PayoutCreateParams, options: RequestOptions = {}): Promise<CreatedPayout> {
    return call(this.#settings, { method: 'POST', path: '/api/v1/payouts', json: params, ...keyOf(options) });
  }

  retrieve(payoutToken: string): Promise<PaymentEnvelope> {
    return call(this.#settings, { method: 'GET', path: encodePath('/api/v1/payments/{token}', { token: payoutToken }) });
  }
}

// /api/v1/balance: every wallet of the key's environment, or (with currency) one.
export class BalanceResource {
  readonly #settings: TransportSettings;

  constructor(settings: TransportSettings) {
    this.#settings = settings;
  }

  retrieve(query: BalanceQuery = {}): Promise<Balance> {
    return call(this.#settings, { method: 'GET', path: '/api/v1/balance', query });
  }
}
