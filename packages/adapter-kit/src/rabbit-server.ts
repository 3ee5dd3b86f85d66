import { connect, type ChannelModel, type ConfirmChannel, type ConsumeMessage, type RecoveringChannelModel } from 'amqplib';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import {
  ADAPTER_REQUEST_QUEUE_DEFAULT,
  brokerAddressOf,
  CONNECT_TIMEOUT_MS,
  DEADLINE_HEADER,
  headerNumber,
  headerText,
  isValidMethodName,
  isValidQueueName,
  JSON_CONTENT_TYPE,
  RECONNECT_DELAY_MS_INITIAL,
  RECONNECT_DELAY_MS_MAX,
  replyProperties,
  SIGNATURE_HEADER,
} from './rabbit-protocol.ts';

// Serves any Fastify adapter over RabbitMQ without touching its handlers: each request message is fed to the
// adapter's own HTTP route (POST <routePrefix>/<type>) with app.inject(), and the route's answer is published to the
// message's reply_to with its correlation_id. The request is acknowledged only once the broker has confirmed the
// reply: a reply lost with the connection leaves the request in its durable queue, delivered again after the
// reconnect (adapters answer a repeated request from what they recorded the first time).

const PREFETCH_DEFAULT = 16; // requests handled at once by this process
const PREFETCH_MAX = 1000;
const START_ATTEMPTS_MAX_DEFAULT = 5; // connection attempts before the first success; after it, retries never stop
const DRAIN_TIMEOUT_MS_DEFAULT = 5000; // on close, how long requests in hand may still finish

export interface RabbitServerOptions {
  url: string; // amqp:// or amqps://, with the vhost as its path
  user?: string; // win over credentials in the URL
  password?: string;
  queue?: string; // the durable request queue; default payrail.adapter.requests
  routePrefix?: string; // where the adapter's routes are mounted, e.g. /sandbox-adapter
  prefetch?: number;
  extraHeaders?: Record<string, string>; // added to each injected request (e.g. x-forwarded-proto behind a TLS proxy)
  startAttemptsMax?: number;
  drainTimeoutMs?: number;
  reconnectDelayMsMax?: number;
  log?: FastifyBaseLogger; // default: the app's
}

export interface RabbitServer {
  queue: string;
  broker: string; // scheme://host:port, never the credentials
  close(): Promise<void>;
}

interface InjectedAnswer {
  statusCode: number;
  contentType: string;
  body: Buffer;
}

export async function serveOverRabbit(app: FastifyInstance, options: RabbitServerOptions): Promise<RabbitServer> {
  const queue = options.queue ?? ADAPTER_REQUEST_QUEUE_DEFAULT;
  if (!isValidQueueName(queue)) throw new Error(`"${queue}" is not a usable queue name`);
  const prefetch = options.prefetch ?? PREFETCH_DEFAULT;
  if (!Number.isSafeInteger(prefetch) || prefetch < 1 || prefetch > PREFETCH_MAX) throw new Error(`prefetch must be 1 to ${PREFETCH_MAX}`);
  const routePrefix = (options.routePrefix ?? '').replace(/\/+$/, '');
  const address = brokerAddressOf(options.url, { user: options.user, password: options.password });
  const log = options.log ?? app.log;
  const inFlight = new Set<Promise<void>>();
  let consuming: { channel: ConfirmChannel; consumerTag: string } | null = null;
  let closing = false;

  async function answerOf(message: ConsumeMessage): Promise<InjectedAnswer> {
    const method = message.properties.type;
    if (typeof method !== 'string' || !isValidMethodName(method)) {
      return jsonAnswer(404, { result: false, error: `unknown adapter method ${JSON.stringify(method ?? null)}` });
    }
    const signature = headerText(message.properties.headers, SIGNATURE_HEADER);
    const contentType = message.properties.contentType;
    try {
      const response = await app.inject({
        method: 'POST',
        url: `${routePrefix}/${method}`,
        payload: message.content,
        headers: {
          ...options.extraHeaders,
          'content-type': typeof contentType === 'string' && contentType !== '' ? contentType : JSON_CONTENT_TYPE,
          ...(signature === null ? {} : { [SIGNATURE_HEADER]: signature }),
        },
      });
      const answeredType = response.headers['content-type'];
      return { statusCode: response.statusCode, contentType: typeof answeredType === 'string' ? answeredType : JSON_CONTENT_TYPE, body: response.rawPayload };
    } catch (error) {
      log.error({ err: error, method }, 'adapter request over RabbitMQ failed');
      return jsonAnswer(500, { result: false, error: 'internal adapter error' });
    }
  }

  async function handle(channel: ConfirmChannel, message: ConsumeMessage): Promise<void> {
    const { correlationId, replyTo } = message.properties;
    if (typeof replyTo !== 'string' || replyTo === '' || typeof correlationId !== 'string' || correlationId === '') {
      log.warn({ queue }, 'request without reply_to or correlation_id dropped: it cannot be answered');
      settle(() => channel.nack(message, false, false));
      return;
    }
    const deadline = headerNumber(message.properties.headers, DEADLINE_HEADER);
    if (deadline !== null && Date.now() > deadline) {
      // The caller's response timeout has passed while the request waited here: it is not processed late.
      log.info({ queue, method: message.properties.type }, 'request past its deadline dropped');
      settle(() => channel.ack(message));
      return;
    }
    const answer = await answerOf(message);
    try {
      await new Promise<void>((resolve, reject) => {
        channel.publish('', replyTo, answer.body, replyProperties(correlationId, answer.statusCode, answer.contentType), (error: unknown) =>
          error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(),
        );
      });
      channel.ack(message);
    } catch (error) {
      log.warn({ err: error, queue }, 'reply not confirmed by the broker: the request stays queued for redelivery');
    }
  }

  // An ack or nack on a channel that has just closed throws; the broker redelivers that message anyway.
  function settle(operation: () => void): void {
    try {
      operation();
    } catch {}
  }

  async function setup(model: ChannelModel): Promise<void> {
    const channel = await model.createConfirmChannel();
    channel.on('error', (error: Error) => log.warn({ err: error, queue }, 'RabbitMQ channel error'));
    channel.on('close', () => {
      if (consuming?.channel === channel) consuming = null;
      // A channel closed on its own (not with its connection): close the connection too, so recovery reopens both.
      if (!closing) void closeQuietly(model);
    });
    await channel.prefetch(prefetch);
    await channel.assertQueue(queue, { durable: true });
    if (closing) return;
    const { consumerTag } = await channel.consume(
      queue,
      (message) => {
        if (message === null) {
          log.warn({ queue }, 'the broker cancelled the consumer (queue deleted?): reconnecting');
          void closeQuietly(model);
          return;
        }
        const handling = handle(channel, message).finally(() => inFlight.delete(handling));
        inFlight.add(handling);
      },
      { noAck: false },
    );
    consuming = { channel, consumerTag };
  }

  let connection: RecoveringChannelModel;
  try {
    connection = await connect(address.connect, {
      timeout: CONNECT_TIMEOUT_MS,
      recovery: {
        initialDelay: RECONNECT_DELAY_MS_INITIAL,
        maxDelay: options.reconnectDelayMsMax ?? RECONNECT_DELAY_MS_MAX,
        initialMaxRetries: options.startAttemptsMax ?? START_ATTEMPTS_MAX_DEFAULT,
        setup,
      },
    });
  } catch (error) {
    throw new Error(`cannot consume ${queue} at ${address.display}: ${(error as Error).message}`);
  }
  connection.on('error', (error: Error) => log.warn({ err: error, queue }, 'RabbitMQ connection error'));
  connection.on('disconnect', (error: Error) => log.warn({ err: error, queue, broker: address.display }, 'RabbitMQ connection lost; reconnecting'));
  connection.on('connect', () => log.info({ queue, broker: address.display }, 'consuming adapter requests from RabbitMQ'));
  log.info({ queue, broker: address.display }, 'consuming adapter requests from RabbitMQ');

  return {
    queue,
    broker: address.display,
    async close() {
      if (closing) return;
      closing = true;
      const current = consuming;
      if (current !== null) await current.channel.cancel(current.consumerTag).catch(() => {});
      const drainTimeoutMs = options.drainTimeoutMs ?? DRAIN_TIMEOUT_MS_DEFAULT;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...inFlight]), new Promise((resolve) => (timer = setTimeout(resolve, drainTimeoutMs)))]);
      clearTimeout(timer);
      await connection.close();
    },
  };
}

function jsonAnswer(statusCode: number, body: object): InjectedAnswer {
  return { statusCode, contentType: JSON_CONTENT_TYPE, body: Buffer.from(JSON.stringify(body), 'utf8') };
}

async function closeQuietly(model: ChannelModel): Promise<void> {
  try {
    await model.close();
  } catch {}
}
