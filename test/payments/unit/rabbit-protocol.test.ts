import { describe, expect, it } from 'vitest';
import { brokerAddressOf, isValidQueueName, requestDisplayUrl, requestProperties } from '../../../packages/adapter-kit/src/rabbit-protocol.ts';
import type { GatewaySettings } from '../../../src/payments/contract/gateway-settings.ts';
import { isRabbitSettingsProblem, rabbitEndpointOf } from '../../../src/payments/gateways/rabbit-endpoint.ts';

describe('the adapter contract over RabbitMQ', () => {
  it.each([
    ['amqp://broker.example', { hostname: 'broker.example', port: 5672, vhost: '/', username: 'guest', password: 'guest' }, 'amqp://broker.example:5672'],
    [
      'amqps://u%40x:p%2Fw@broker.example/payments',
      { protocol: 'amqps', port: 5671, vhost: 'payments', username: 'u@x', password: 'p/w' },
      'amqps://broker.example:5671?vhost=payments',
    ],
    ['amqp://[::1]:5673/%2f', { hostname: '::1', port: 5673, vhost: '%2f' }, 'amqp://[::1]:5673'],
    ['amqp://only-user@broker.example', { username: 'only-user', password: '' }, 'amqp://broker.example:5672'],
  ])('reads %s into connection options and a display without credentials', (url, connect, display) => {
    const address = brokerAddressOf(url);
    expect(address.connect).toMatchObject(connect);
    expect(address.display).toBe(display);
  });

  it('lets rabbit_user and rabbit_password win over the credentials of the URL', () => {
    expect(brokerAddressOf('amqp://a:b@broker.example', { user: 'payrail', password: 'secret' }).connect).toMatchObject({
      username: 'payrail',
      password: 'secret',
    });
  });

  it.each([['https://broker.example'], ['amqp://'], ['not a url'], ['amqp://broker.example/%E0%A4%A']])('refuses the broker URL %s', (url) => {
    expect(() => brokerAddressOf(url)).toThrow();
  });

  it('names the broker, queue and method in the log URL, with the vhost when it is not the default', () => {
    expect(requestDisplayUrl(brokerAddressOf('amqp://u:p@broker.example'), 'payments.requests', 'pay')).toBe(
      'amqp://broker.example:5672/payments.requests#pay',
    );
    expect(requestDisplayUrl(brokerAddressOf('amqps://broker.example/prod'), 'q', 'status')).toBe('amqps://broker.example:5671/q?vhost=prod#status');
  });

  it.each([
    ['payrail.adapter.requests', true],
    ['a:b-c_d.e', true],
    ['amq.reserved', false],
    ['', false],
    ['with space', false],
    ['x'.repeat(255), true],
    ['x'.repeat(256), false],
  ])('queue name %s is usable: %s', (name, usable) => {
    expect(isValidQueueName(name)).toBe(usable);
  });

  it('makes requests persistent, mandatory, typed by method, expiring with the timeout, signed when asked', () => {
    const properties = requestProperties({ correlationId: 'c-1', replyTo: 'amq.gen-1', method: 'pay', timeoutMs: 15_000, signature: 'ab12', nowMs: 1_000_000 });
    expect(properties).toMatchObject({
      persistent: true,
      mandatory: true,
      type: 'pay',
      correlationId: 'c-1',
      replyTo: 'amq.gen-1',
      expiration: '15000',
      headers: { 'x-signature': 'ab12', 'x-payrail-deadline': 1_015_000 },
    });
    expect(requestProperties({ correlationId: 'c', replyTo: 'r', method: 'status', timeoutMs: 1, signature: null, nowMs: 0 }).headers).not.toHaveProperty(
      'x-signature',
    );
    expect(() => requestProperties({ correlationId: 'c', replyTo: 'r', method: '../pay', timeoutMs: 1, signature: null, nowMs: 0 })).toThrow();
    expect(() => requestProperties({ correlationId: 'c', replyTo: 'r', method: 'pay', timeoutMs: 0, signature: null, nowMs: 0 })).toThrow();
  });

  it('finds a gateway endpoint, defaulting the queue, and keys one connection per broker, vhost and credentials', () => {
    const gatewaySettings = (extra: Record<string, unknown>) =>
      ({ processing_method: 'rabbit', rabbit_url: 'amqp://broker.example', ...extra }) as GatewaySettings['gateway_settings'];
    const plain = rabbitEndpointOf(gatewaySettings({}));
    if (isRabbitSettingsProblem(plain)) throw new Error(plain.message);
    expect(plain.queue).toBe('payrail.adapter.requests');
    const other = rabbitEndpointOf(gatewaySettings({ rabbit_user: 'guest', rabbit_password: 'other', rabbit_queue: 'acquirer.requests' }));
    if (isRabbitSettingsProblem(other)) throw new Error(other.message);
    expect(other.queue).toBe('acquirer.requests');
    expect(other.linkKey).not.toBe(plain.linkKey);
    expect(other.linkKey).not.toContain('other');
    expect(rabbitEndpointOf(gatewaySettings({ rabbit_queue: 7 }))).toMatchObject({ field: 'settings.gateway_settings.rabbit_queue' });
    expect(rabbitEndpointOf(gatewaySettings({ rabbit_url: undefined }))).toMatchObject({ field: 'settings.gateway_settings.rabbit_url' });
  });
});
