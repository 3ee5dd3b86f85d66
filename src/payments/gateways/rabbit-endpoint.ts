import { errorMessage } from '../../platform/lib/type-guards.ts';
import { createHash } from 'node:crypto';
import { ADAPTER_REQUEST_QUEUE_DEFAULT, brokerAddressOf, isValidQueueName, requestDisplayUrl, type BrokerAddress } from '@payrail/adapter-kit';
import type { GatewaySettings } from '../contract/gateway-settings.ts';

// Where a gateway with processing_method rabbit sends its requests (spec 2.10: rabbit_url, rabbit_user,
// rabbit_password), and the request queue: the provider key gateway_settings.rabbit_queue, default
// payrail.adapter.requests (the adapter consumes the same durable queue).

export interface RabbitEndpoint {
  address: BrokerAddress;
  queue: string;
  linkKey: string; // one connection per broker, vhost and credentials
}

export interface RabbitSettingsProblem {
  field: string;
  message: string;
}

const FIELD = 'settings.gateway_settings';

export function rabbitEndpointOf(gatewaySettings: GatewaySettings['gateway_settings']): RabbitEndpoint | RabbitSettingsProblem {
  const { rabbit_url: url, rabbit_user: user, rabbit_password: password } = gatewaySettings;
  if (url === undefined || url === '') return { field: `${FIELD}.rabbit_url`, message: 'is required for processing_method rabbit' };
  const queue = (gatewaySettings as Record<string, unknown>)['rabbit_queue'] ?? ADAPTER_REQUEST_QUEUE_DEFAULT;
  if (typeof queue !== 'string' || !isValidQueueName(queue)) {
    return { field: `${FIELD}.rabbit_queue`, message: 'must be 1 to 255 of A-Z a-z 0-9 . _ : - and not start with "amq."' };
  }
  let address: BrokerAddress;
  try {
    address = brokerAddressOf(url, { user, password });
  } catch (error) {
    return { field: `${FIELD}.rabbit_url`, message: errorMessage(error) };
  }
  const { connect } = address;
  const passwordDigest = createHash('sha256')
    .update(connect.password ?? '')
    .digest('hex');
  return { address, queue, linkKey: `${address.display}|${connect.vhost}|${connect.username}|${passwordDigest}` };
}

export function isRabbitSettingsProblem(value: RabbitEndpoint | RabbitSettingsProblem): value is RabbitSettingsProblem {
  return 'field' in value;
}

export function endpointDisplayUrl(endpoint: RabbitEndpoint, method: string): string {
  return requestDisplayUrl(endpoint.address, endpoint.queue, method);
}
