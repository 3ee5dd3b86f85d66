import { errorCode, errorMessage } from '../../platform/lib/type-guards.ts';
import { randomUUID } from 'node:crypto';
import { connect, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type Message, type RecoveringChannelModel } from 'amqplib';
import {
  CONNECT_TIMEOUT_MS,
  headerNumber,
  RECONNECT_DELAY_MS_INITIAL,
  RECONNECT_DELAY_MS_MAX,
  requestProperties,
  STATUS_CODE_HEADER,
  type BrokerAddress,
} from '@payrail/adapter-kit';
import type { AdapterAnswer } from '../domain/adapter-outcome.ts';

// One connection to one broker (as one user), shared by every call to the adapters behind it. Requests go out on a
// confirm channel; replies come back to an exclusive, server-named queue of this connection, consumed on the same
// channel. An exclusive queue rather than RabbitMQ's direct reply-to (amq.rabbitmq.reply-to): it is plain AMQP 0-9-1,
// it is bounded (x-max-length) and visible in the broker's management like any queue, and the adapter may publish
// its reply on a confirm channel and acknowledge the request only once the broker holds the reply.
//
// Connection loss: every call waiting for a reply answers network_error at once (its reply queue is gone with the
// connection), and the connection is reopened in the background with exponential backoff. Until it is back, calls
// answer network_error without waiting: nothing was sent, and the payment's status checker tries again later.

const REPLY_BYTES_MAX = 1024 * 1024; // as over HTTP
const PENDING_CALLS_MAX = 10_000; // calls waiting for a reply on one connection
const REPLY_QUEUE_LENGTH_MAX = PENDING_CALLS_MAX;

// network_error codes of calls whose request never reached the adapter's queue (gateway routing may fail over).
const NOT_SENT_CODES = Object.freeze({
  notConnected: 'AMQP_NOT_CONNECTED', // no connection to the broker (or it was refused without a system error code)
  noRoute: 'AMQP_NO_ROUTE', // the broker has no queue of that name: returned, unrouted
  nacked: 'AMQP_NACK', // the broker refused the message (basic.nack)
  blocked: 'AMQP_BLOCKED', // the broker blocks publishers (resource alarm)
  busy: 'AMQP_BUSY', // too many calls already wait on this connection
});

export interface BrokerLinkOptions {
  reconnectDelayMsMax?: number; // default RECONNECT_DELAY_MS_MAX
}

interface Session {
  model: ChannelModel;
  channel: ConfirmChannel;
  replyQueue: string;
}

interface PendingCall {
  returned: boolean; // the broker could not route the request: no such queue
  settle(answer: AdapterAnswer): void;
}

export class BrokerLink {
  private session: Session | null = null;
  private readonly pending = new Map<string, PendingCall>();
  private firstAttemptDone = false;
  private readonly firstAttempt: Promise<void>;
  private readonly connection: Promise<RecoveringChannelModel>;
  private lastFailure: { message: string; code: string | undefined } | null = null;
  private blockedReason: string | null = null;
  private closed = false;
  private readonly address: BrokerAddress;

  constructor(address: BrokerAddress, options: BrokerLinkOptions = {}) {
    this.address = address;
    let firstAttemptOver = () => {};
    this.firstAttempt = new Promise((resolve) => (firstAttemptOver = resolve));
    const attemptOver = () => {
      this.firstAttemptDone = true;
      firstAttemptOver();
    };
    this.connection = connect(address.connect, {
      timeout: CONNECT_TIMEOUT_MS,
      recovery: {
        initialDelay: RECONNECT_DELAY_MS_INITIAL,
        maxDelay: options.reconnectDelayMsMax ?? RECONNECT_DELAY_MS_MAX,
        waitForConnect: false,
        setup: (model: ChannelModel) => this.openSession(model),
      },
    }).then((connection) => {
      // Listeners are attached before the first attempt, which the library defers to the next turn of the loop.
      connection.on('connect', () => {
        this.lastFailure = null;
        attemptOver();
      });
      connection.on('connect-failed', (error: Error) => {
        this.lastFailure = failureOf(error);
        attemptOver();
      });
      connection.on('error', (error: Error) => (this.lastFailure = failureOf(error)));
      connection.on('blocked', (reason: string) => (this.blockedReason = reason || 'resource alarm'));
      connection.on('unblocked', () => (this.blockedReason = null));
      return connection;
    });
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  // One request and its reply, bounded by timeoutMs from the call.
  async request(queue: string, method: string, bodyText: string, signature: string | null, timeoutMs: number): Promise<AdapterAnswer> {
    const startedAtMs = performance.now();
    if (this.closed) return networkError('the adapter client is closed', NOT_SENT_CODES.notConnected);
    if (this.pending.size >= PENDING_CALLS_MAX) {
      return networkError(`${PENDING_CALLS_MAX} calls already wait on this broker: nothing was sent`, NOT_SENT_CODES.busy);
    }
    if (this.session === null && !this.firstAttemptDone) await withinMs(this.firstAttempt, timeoutMs);
    const session = this.session;
    if (session === null) {
      const why = this.lastFailure?.message ?? 'reconnecting';
      return networkError(
        `not connected to the broker ${this.address.display} (${why}): nothing was sent`,
        this.lastFailure?.code ?? NOT_SENT_CODES.notConnected,
      );
    }
    if (this.blockedReason !== null) {
      return networkError(`the broker blocks publishing (${this.blockedReason}): nothing was sent`, NOT_SENT_CODES.blocked);
    }
    const remainingMs = Math.max(1, Math.round(timeoutMs - (performance.now() - startedAtMs)));
    return this.publish(session, queue, method, bodyText, signature, remainingMs);
  }

  private publish(session: Session, queue: string, method: string, bodyText: string, signature: string | null, timeoutMs: number): Promise<AdapterAnswer> {
    const correlationId = randomUUID();
    return new Promise<AdapterAnswer>((resolve) => {
      const timer = setTimeout(() => call.settle({ kind: 'timeout' }), timeoutMs);
      const call: PendingCall = {
        returned: false,
        settle: (answer) => {
          if (!this.pending.delete(correlationId)) return;
          clearTimeout(timer);
          resolve(answer);
        },
      };
      this.pending.set(correlationId, call);
      const properties = requestProperties({ correlationId, replyTo: session.replyQueue, method, timeoutMs, signature, nowMs: Date.now() });
      try {
        session.channel.publish('', queue, Buffer.from(bodyText, 'utf8'), properties, (error: unknown) => {
          if (isNack(error)) call.settle(networkError('the broker refused the request (nack): nothing was sent', NOT_SENT_CODES.nacked));
          else if (error) call.settle(networkError('the channel closed before the broker confirmed the request: it may have been queued'));
          else if (call.returned) {
            call.settle(networkError(`no queue "${queue}" on the broker ${this.address.display}: nothing was sent`, NOT_SENT_CODES.noRoute));
          }
          // Confirmed: the request is in its durable queue; the reply (or the timeout) settles the call.
        });
      } catch (error) {
        call.settle(networkError(`publishing failed: ${errorMessage(error)}`, NOT_SENT_CODES.notConnected));
      }
    });
  }

  private async openSession(model: ChannelModel): Promise<void> {
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) => (this.lastFailure = failureOf(error)));
    // A basic.return comes before the confirm of the same message: the confirm callback then sees `returned`.
    channel.on('return', (message: Message) => {
      const call = this.pending.get(String(message.properties.correlationId));
      if (call !== undefined) call.returned = true;
    });
    const { queue } = await channel.assertQueue('', {
      exclusive: true,
      autoDelete: true,
      durable: false,
      arguments: { 'x-max-length': REPLY_QUEUE_LENGTH_MAX },
    });
    const session: Session = { model, channel, replyQueue: queue };
    await channel.consume(queue, (message) => this.onReply(session, message), { noAck: true });
    model.on('close', () => this.loseSession(session, 'the connection to the broker was lost before the reply'));
    channel.on('close', () => {
      this.loseSession(session, 'the channel to the broker was closed before the reply');
      // A channel closed on its own: close its connection too, so recovery reopens both.
      model.close().catch(() => {});
    });
    if (this.closed) {
      await model.close().catch(() => {});
      return;
    }
    this.session = session;
  }

  private onReply(session: Session, message: ConsumeMessage | null): void {
    if (message === null) {
      // The broker cancelled the consumer (its reply queue was deleted): start over on a new connection.
      this.loseSession(session, 'the reply queue was deleted');
      session.model.close().catch(() => {});
      return;
    }
    this.pending.get(String(message.properties.correlationId))?.settle(answerOfReply(message));
  }

  private loseSession(session: Session, reason: string): void {
    if (this.session !== session) return;
    this.session = null;
    for (const call of [...this.pending.values()]) call.settle(networkError(reason));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const session = this.session;
    if (session !== null) this.loseSession(session, 'the adapter client is closing');
    await (await this.connection).close();
  }
}

// The reply as the HTTP client reads a response: the adapter's status code first, then its JSON.
function answerOfReply(message: ConsumeMessage): AdapterAnswer {
  if (message.content.length > REPLY_BYTES_MAX) return networkError('adapter response is larger than 1 MiB');
  const statusCode = headerNumber(message.properties.headers, STATUS_CODE_HEADER) ?? 200;
  if (statusCode >= 400) return { kind: 'http_error', statusCode };
  try {
    const body: unknown = JSON.parse(message.content.toString('utf8'));
    return { kind: 'response', body };
  } catch {
    return { kind: 'invalid_json' };
  }
}

function networkError(message: string, code?: string): AdapterAnswer {
  return code === undefined ? { kind: 'network_error', message } : { kind: 'network_error', message, code };
}

// amqplib confirms with null, refuses with "message nacked", and fails outstanding confirms with "channel closed".
function isNack(error: unknown): boolean {
  return error instanceof Error && error.message === 'message nacked';
}

// The system error code (ECONNREFUSED, ENOTFOUND, ETIMEDOUT, …) of a failed connection attempt, when there is one.
function failureOf(error: Error): { message: string; code: string | undefined } {
  const code = errorCode(error);
  return { message: error.message, code: typeof code === 'string' && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : undefined };
}

async function withinMs(promise: Promise<void>, limitMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, limitMs)))]);
  clearTimeout(timer);
}
