import { randomBytes, randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { errorCodeOf, type Client, type Retried } from './client.ts';

// The load driver: Host-to-Host payments and hosted checkouts over every sandbox pay card (3-D Secure completed or
// abandoned, secure codes and next steps answered), hosted checkouts left to expire, refunds (whole, partial,
// concurrent) of approved payments, and payouts; every POST carries an Idempotency-Key and is retried with it
// after a failure. It records what Payrail acknowledged, for the checks.

export interface TestCard {
  pan: string;
  operation: 'pay' | 'payout';
  scenario: string;
}

export interface CreateRecord {
  kind: 'h2h' | 'hosted' | 'payout';
  orderNumber: string;
  card: string;
  token: string | null; // acknowledged: a 200 carrying the token
  answered: number | null; // the definite HTTP status, null when the retries ran out
  code: string; // the error code of a refusal
}

export interface RefundRecord {
  paymentToken: string;
  style: 'whole' | 'partial' | 'concurrent';
  token: string | null;
  answered: number | null;
  code: string;
}

export interface LoadFigures {
  creates: CreateRecord[];
  refunds: RefundRecord[];
  retried: number; // operations that needed more than one attempt
  failures: { resets: number; timeouts: number; serverErrors: number; inUse: number };
  abandoned3ds: number;
  leftToExpire: number;
}

const EXPIRY_NOW_YEAR = new Date().getUTCFullYear() + 2;
const HOLDER = 'Chaos Tester';
const APPROVAL_WAIT_MS = 15_000;
const SHORT_TIMEOUT_SHARE = 0.1; // operations whose first attempt gives up early (a client timeout)
const IMMEDIATE_REFUND_SHARE = 0.3;

export class LoadDriver {
  readonly figures: LoadFigures = {
    creates: [],
    refunds: [],
    retried: 0,
    failures: { resets: 0, timeouts: 0, serverErrors: 0, inUse: 0 },
    abandoned3ds: 0,
    leftToExpire: 0,
  };
  private stopped = false;
  private nextCard = 0;
  private readonly runId = randomBytes(3).toString('hex');
  private sequence = 0;

  private readonly client: Client;
  private readonly key: string;
  private readonly callbackUrl: string;
  private readonly cards: TestCard[];

  constructor(client: Client, key: string, callbackUrl: string, cards: TestCard[]) {
    this.client = client;
    this.key = key;
    this.callbackUrl = callbackUrl;
    this.cards = cards;
  }

  stop(): void {
    this.stopped = true;
  }

  // One loop of the driver: operations one after another until stopped.
  async loop(): Promise<void> {
    while (!this.stopped) {
      const dice = Math.random();
      try {
        if (dice < 0.5) await this.hostToHost();
        else if (dice < 0.8) await this.hosted();
        else await this.payout();
      } catch {
        // an operation that failed outside the retried POSTs (a detail read during a kill): the next one starts
      }
    }
  }

  private payCards(): TestCard[] {
    return this.cards.filter((card) => card.operation === 'pay');
  }

  // Round-robin over the pay cards, so every card is used whatever the run's length.
  private takeCard(): TestCard {
    const cards = this.payCards();
    const card = cards[this.nextCard % cards.length]!;
    this.nextCard += 1;
    return card;
  }

  private newOrder(kind: string): string {
    this.sequence += 1;
    return `chaos-${this.runId}-${kind}-${this.sequence}`;
  }

  private async post(path: string, json: unknown): Promise<Retried> {
    const idempotencyKey = `chaos-${randomBytes(12).toString('hex')}`;
    const shortFirst = Math.random() < SHORT_TIMEOUT_SHARE ? { firstTimeoutMs: randomInt(50, 800) } : {};
    const result = await this.client.retried(path, { key: this.key, json, idempotencyKey, ...shortFirst });
    if (result.attempts > 1) this.figures.retried += 1;
    for (const name of ['resets', 'timeouts', 'serverErrors', 'inUse'] as const) this.figures.failures[name] += result.failures[name];
    return result;
  }

  private paymentBody(orderNumber: string) {
    return {
      product: 'Chaos order',
      amount: randomInt(500, 5000),
      currency: 'USD',
      orderNumber,
      callbackUrl: this.callbackUrl,
      expires_at: 1,
    };
  }

  private record(kind: CreateRecord['kind'], orderNumber: string, card: string, result: Retried): CreateRecord {
    const token = result.answer?.status === 200 && typeof result.answer.body['token'] === 'string' ? result.answer.body['token'] : null;
    const record = { kind, orderNumber, card, token, answered: result.answer?.status ?? null, code: result.answer ? errorCodeOf(result.answer) : '' };
    this.figures.creates.push(record);
    return record;
  }

  private async hostToHost(): Promise<void> {
    const card = this.takeCard();
    const orderNumber = this.newOrder('h2h');
    const body = {
      ...this.paymentBody(orderNumber),
      card: { pan: card.pan, expires: `12/${EXPIRY_NOW_YEAR}`, holder: HOLDER, cvv: '123' },
      customer: { email: 'chaos@example.com', ip: '203.0.113.9' },
    };
    const result = await this.post('/api/v1/payments', body);
    const created = this.record('h2h', orderNumber, card.pan, result);
    if (created.token === null) return;
    const answered = result.answer?.body['payment'] as { status?: string } | undefined;
    if (answered?.status === 'approved' && Math.random() < IMMEDIATE_REFUND_SHARE) {
      await this.refunds(created.token, body.amount); // refunded right after approval: both events must be told
      return;
    }
    await this.followUp(created.token);
  }

  private async hosted(): Promise<void> {
    const orderNumber = this.newOrder('hosted');
    const card = Math.random() < 0.25 ? null : this.takeCard();
    const created = this.record('hosted', orderNumber, card?.pan ?? '', await this.post('/api/v1/payments', this.paymentBody(orderNumber)));
    if (created.token === null) return;
    if (card === null) {
      this.figures.leftToExpire += 1; // nobody pays: it must end expired
      return;
    }
    const form = { pan: card.pan, expires: `12/${String(EXPIRY_NOW_YEAR).slice(-2)}`, holder: HOLDER, cvv: '123' };
    // A customer's form post is not idempotent by key: on a failure the customer reloads, and the page says where it stands.
    await this.client.call('POST', `/checkout/${created.token}`, { form, accept: 'text/html' }).catch(() => null);
    await this.followUp(created.token);
  }

  // What the customer does next (3-D Secure, a code, a phone number), then refunds once approved.
  private async followUp(token: string): Promise<void> {
    let detail = await this.detail(token);
    const redirect = detail?.['redirect_request'] as { url?: string } | null | undefined;
    if (detail?.['status'] === 'pending' && typeof redirect?.url === 'string' && redirect.url.includes('/3ds/')) {
      if (Math.random() < 0.2) {
        this.figures.abandoned3ds += 1; // the customer never comes back: it must not stay pending past its lifetime
        return;
      }
      await this.completeThreeDSecure(redirect.url);
    }
    const step = (detail?.['pending_step'] as { type?: string } | null | undefined)?.type;
    if (step === 'secure_code') await this.post(`/api/v1/payments/${token}/secure_code`, { code: '123456' });
    if (step === 'next_step') await this.post(`/api/v1/payments/${token}/next_step`, { fields: { phone: '+447700900123' } });
    detail = await this.waitForFinal(token);
    if (detail?.['status'] === 'approved' && Math.random() < 0.6) await this.refunds(token, Number(detail['captured_amount'] ?? detail['amount']));
  }

  private async completeThreeDSecure(pageUrl: string): Promise<void> {
    // The page is served through the counting proxy; only its path is ours to post to.
    const url = new URL(`${pageUrl}/complete`);
    await this.client.callAt(url, { form: { outcome: 'success' }, accept: 'text/html' }).catch(() => null);
  }

  private async refunds(paymentToken: string, captured: number): Promise<void> {
    const dice = Math.random();
    if (dice < 0.35) {
      await this.refund(paymentToken, 'whole', undefined);
    } else if (dice < 0.7) {
      const part = Math.max(1, Math.floor(captured / 3));
      await this.refund(paymentToken, 'partial', part);
      if (Math.random() < 0.5) await this.refund(paymentToken, 'partial', part);
    } else {
      // Concurrent partial refunds summing more than captured: at most two of three fit.
      const part = Math.max(1, Math.floor(captured * 0.4));
      await Promise.all([0, 1, 2].map(() => this.refund(paymentToken, 'concurrent', part)));
    }
  }

  private async refund(paymentToken: string, style: RefundRecord['style'], amount: number | undefined): Promise<void> {
    const result = await this.post('/api/v1/refunds', amount === undefined ? { token: paymentToken } : { token: paymentToken, amount });
    const answer = result.answer;
    const refund = answer?.body['refund'] as { token?: string } | undefined;
    const token = answer?.status === 200 ? (refund?.token ?? null) : null;
    this.figures.refunds.push({ paymentToken, style, token, answered: answer?.status ?? null, code: answer ? errorCodeOf(answer) : '' });
  }

  private async payout(): Promise<void> {
    const payoutCards = this.cards.filter((card) => card.operation === 'payout');
    const card = payoutCards[randomInt(payoutCards.length)]!;
    const orderNumber = this.newOrder('payout');
    const body = {
      amount: randomInt(100, 400),
      currency: 'USD',
      orderNumber,
      callbackUrl: this.callbackUrl,
      bank_account: { requisite_type: 'card' },
      card: { pan: card.pan },
      customer: { email: 'payee@example.com' },
    };
    this.record('payout', orderNumber, card.pan, await this.post('/api/v1/payouts', body));
  }

  private async detail(token: string): Promise<Record<string, unknown> | null> {
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const answer = await this.client.call('GET', `/api/v1/payments/${token}`, { key: this.key }).catch(() => null);
      if (answer?.status === 200) return answer.body['payment'] as Record<string, unknown>;
      await sleep(500);
    }
    return null;
  }

  private async waitForFinal(token: string): Promise<Record<string, unknown> | null> {
    const deadline = Date.now() + APPROVAL_WAIT_MS;
    let detail: Record<string, unknown> | null = null;
    while (Date.now() < deadline && !this.stopped) {
      detail = await this.detail(token);
      if (detail !== null && !['init', 'pending', 'processing'].includes(String(detail['status']))) return detail;
      await sleep(700);
    }
    return detail;
  }
}
