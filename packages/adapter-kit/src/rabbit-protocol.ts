import { SIGNATURE_HEADER } from './signature.ts';

export { SIGNATURE_HEADER };

// The adapter contract over AMQP 0-9-1 (processing_method rabbit), shared by Payrail's client and the kit's server.
//
// Request: the JSON body Payrail would POST to <full_link>/<method>, published to the adapter's durable request
//   queue through the default exchange: persistent, `type` = the method name, `correlation_id`, `reply_to` = the
//   caller's reply queue, `expiration` = the caller's response timeout (a request the caller gave up on is dropped by
//   the broker, never processed late), the header `x-signature` when the gateway validates signatures (the same
//   HMAC-SHA512 of the body as over HTTP) and `x-payrail-deadline` (epoch ms) for requests already fetched.
// Reply: the JSON body the adapter would answer over HTTP, to `reply_to` with the same `correlation_id`, and the
//   HTTP status it would have used in the header `x-status-code` (absent: 200).

export const ADAPTER_REQUEST_QUEUE_DEFAULT = 'payrail.adapter.requests';
export const STATUS_CODE_HEADER = 'x-status-code';
export const DEADLINE_HEADER = 'x-payrail-deadline';
export const JSON_CONTENT_TYPE = 'application/json';

// AMQP short strings hold 255 bytes; "amq." names are reserved by the broker. Kept to a plain alphabet so a name
// reads the same in logs, URLs and the management UI.
const QUEUE_NAME_PATTERN = /^(?!amq\.)[A-Za-z0-9._:-]{1,255}$/;
// Method names become the last segment of an HTTP route on the adapter: lowercase words only.
const METHOD_NAME_PATTERN = /^[a-z][a-z_]{0,63}$/;

const HEARTBEAT_S = 10; // a broker that stops answering is noticed within about two heartbeats
export const CONNECT_TIMEOUT_MS = 5000; // the TCP and TLS handshake of one connection attempt
export const RECONNECT_DELAY_MS_INITIAL = 100;
export const RECONNECT_DELAY_MS_MAX = 5000;

export function isValidQueueName(name: string): boolean {
  return QUEUE_NAME_PATTERN.test(name);
}

export function isValidMethodName(name: string): boolean {
  return METHOD_NAME_PATTERN.test(name);
}

// The part of amqplib's publish and connect options set here, declared here: the kit's types must not need amqplib
// (an optional peer) installed to typecheck. amqplib's own types accept them.
interface PublishProperties {
  persistent?: boolean;
  mandatory?: boolean;
  contentType?: string;
  contentEncoding?: string;
  type?: string;
  correlationId?: string;
  messageId?: string;
  replyTo?: string;
  expiration?: string;
  timestamp?: number;
  appId?: string;
  headers?: Record<string, string | number>;
}

interface ConnectOptions {
  protocol: 'amqp' | 'amqps';
  hostname: string;
  port: number;
  username: string;
  password: string;
  vhost: string;
  heartbeat: number;
}

export interface RequestMessage {
  correlationId: string;
  replyTo: string;
  method: string;
  timeoutMs: number;
  signature: string | null;
  nowMs: number;
}

export function requestProperties(message: RequestMessage): PublishProperties {
  if (!isValidMethodName(message.method)) throw new Error(`"${message.method}" is not an adapter method name`);
  if (!Number.isSafeInteger(message.timeoutMs) || message.timeoutMs < 1) throw new Error('the timeout must be a positive whole number of milliseconds');
  const headers: Record<string, string | number> = { [DEADLINE_HEADER]: message.nowMs + message.timeoutMs };
  if (message.signature !== null) headers[SIGNATURE_HEADER] = message.signature;
  return {
    persistent: true,
    mandatory: true, // no queue to route to: the broker returns the message, so the caller knows nothing was sent
    contentType: JSON_CONTENT_TYPE,
    contentEncoding: 'utf-8',
    type: message.method,
    correlationId: message.correlationId,
    messageId: message.correlationId,
    replyTo: message.replyTo,
    expiration: String(message.timeoutMs),
    timestamp: Math.floor(message.nowMs / 1000),
    appId: 'payrail',
    headers,
  };
}

export function replyProperties(correlationId: string, statusCode: number, contentType: string): PublishProperties {
  return {
    persistent: false, // the reply queue lives only as long as its caller's connection
    contentType,
    correlationId,
    headers: { [STATUS_CODE_HEADER]: statusCode },
  };
}

// A header value as amqplib decodes it: a long string arrives as a string or, from some clients, as bytes.
export function headerText(headers: Record<string, unknown> | undefined, name: string): string | null {
  const value = headers?.[name];
  if (typeof value === 'string') return value;
  if (Buffer.isBuffer(value)) return value.toString('utf8');
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

export function headerNumber(headers: Record<string, unknown> | undefined, name: string): number | null {
  const text = headerText(headers, name);
  if (text === null || !/^\d{1,16}$/.test(text)) return null;
  return Number(text);
}

export interface BrokerAddress {
  connect: ConnectOptions; // what amqplib connects with, credentials included
  display: string; // scheme://host:port, with ?vhost= unless the default: never credentials
}

// rabbit_url may carry credentials; explicit ones (rabbit_user / rabbit_password) win. An empty path or "/" is the
// default vhost "/"; any other path names the vhost (percent-encoded, "%2f" for "/").
export function brokerAddressOf(url: string, credentials: { user?: string | undefined; password?: string | undefined } = {}): BrokerAddress {
  if (!URL.canParse(url)) throw new Error('the broker URL is not a URL');
  const parsed = new URL(url);
  if (parsed.protocol !== 'amqp:' && parsed.protocol !== 'amqps:') throw new Error('the broker URL must start with amqp:// or amqps://');
  if (parsed.hostname === '') throw new Error('the broker URL has no host');
  const secure = parsed.protocol === 'amqps:';
  const port = parsed.port === '' ? (secure ? 5671 : 5672) : Number(parsed.port);
  const encodedVhost = parsed.pathname.slice(1); // amqplib decodes it
  const vhost = encodedVhost === '' ? '/' : decoded(encodedVhost, 'vhost');
  const hostname = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  // As amqplib does: guest/guest only when neither a user nor a password is given anywhere.
  const givenUser = credentials.user ?? (parsed.username === '' ? undefined : decoded(parsed.username, 'user'));
  const givenPassword = credentials.password ?? (parsed.password === '' ? undefined : decoded(parsed.password, 'password'));
  const anyGiven = givenUser !== undefined || givenPassword !== undefined;
  const username = givenUser ?? (anyGiven ? '' : 'guest');
  const password = givenPassword ?? (anyGiven ? '' : 'guest');
  const hostText = parsed.hostname; // keeps IPv6 brackets
  return {
    connect: {
      protocol: secure ? 'amqps' : 'amqp',
      hostname,
      port,
      username,
      password,
      vhost: encodedVhost === '' ? '/' : encodedVhost,
      heartbeat: HEARTBEAT_S,
    },
    display: `${parsed.protocol}//${hostText}:${port}${vhost === '/' ? '' : `?vhost=${encodeURIComponent(vhost)}`}`,
  };
}

function decoded(text: string, part: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw new Error(`the broker URL has a malformed percent-encoded ${part}`);
  }
}

// Where a call went, for logs: the broker, the queue and the method, never the credentials.
export function requestDisplayUrl(address: BrokerAddress, queue: string, method: string): string {
  const [origin, query] = address.display.split('?');
  return `${origin}/${queue}${query === undefined ? '' : `?${query}`}#${method}`;
}
