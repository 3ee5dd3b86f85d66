import type { FastifyInstance } from 'fastify';
import type { RabbitServer, RabbitServerOptions } from './rabbit-server.ts';

// The RabbitMQ side (processing_method rabbit) is loaded only when used: amqplib is an optional peer.
export type { RabbitServer, RabbitServerOptions } from './rabbit-server.ts';
// The protocol itself (message properties, headers, queue names): Payrail's client speaks it with the kit's server.
export {
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
  requestDisplayUrl,
  requestProperties,
  STATUS_CODE_HEADER,
  type BrokerAddress,
  type RequestMessage,
} from './rabbit-protocol.ts';

// Serves an adapter app's routes (adapterHttpServer or your own) to Payrail over AMQP 0-9-1 too.
export async function serveOverRabbit(app: FastifyInstance, options: RabbitServerOptions): Promise<RabbitServer> {
  const { serveOverRabbit: serve } = await import('./rabbit-server.ts');
  return serve(app, options);
}
