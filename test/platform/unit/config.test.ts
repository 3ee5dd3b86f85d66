import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';

describe('configuration from the environment', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      host: 'localhost',
      port: 8443,
      databaseUrl: null,
      dbPoolMax: 20,
      trustProxy: false,
      publicUrl: 'https://localhost:8443',
      extraCurrencies: { USDT: 6 },
      paymentExpiryMinutes: 30,
      demoMerchant: true,
    });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it.each([['1'], ['true'], ['yes']])('reads %s as true', (value) => {
    expect(loadConfig({ PAYRAIL_TRUST_PROXY: value }).trustProxy).toBe(true);
  });

  it.each([
    ['PORT', '70000'],
    ['PORT', 'eighty'],
    ['DATABASE_URL', 'mysql://x'],
    ['PAYRAIL_DB_POOL_MAX', '0'],
    ['PAYRAIL_TRUST_PROXY', 'maybe'],
    ['PAYRAIL_EXTRA_CURRENCIES', 'usdt:6'],
    ['PAYRAIL_ADMIN_KEY', 'short'],
    ['PAYRAIL_PUBLIC_URL', 'https://pay.example/path'],
  ])('refuses %s=%s with a clear message', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });

  it('needs the TLS certificate and key together', () => {
    expect(() => loadConfig({ PAYRAIL_TLS_CERT: '/tmp/cert.pem' })).toThrow(/together/);
  });

  it('reaches the sandbox adapter over HTTP unless PAYRAIL_SANDBOX_ADAPTER_TRANSPORT is rabbit, with the credentials out of the URL', () => {
    expect(loadConfig({})).toMatchObject({
      sandboxAdapterTransport: 'http',
      sandboxRabbit: { url: 'amqp://127.0.0.1:5672', user: 'guest', password: 'guest', queue: 'payrail.sandbox-adapter.requests' },
    });
    const rabbit = loadConfig({
      PAYRAIL_SANDBOX_ADAPTER_TRANSPORT: 'rabbit',
      PAYRAIL_SANDBOX_RABBIT_URL: 'amqps://pay%40rail:s%2Fcret@broker.example:5671/payments',
      PAYRAIL_SANDBOX_RABBIT_QUEUE: 'sandbox.requests',
    });
    expect(rabbit).toMatchObject({
      sandboxAdapterTransport: 'rabbit',
      sandboxRabbit: { url: 'amqps://broker.example:5671/payments', user: 'pay@rail', password: 's/cret', queue: 'sandbox.requests' },
    });
  });

  it.each([
    ['PAYRAIL_SANDBOX_ADAPTER_TRANSPORT', 'kafka'],
    ['PAYRAIL_SANDBOX_RABBIT_URL', 'http://broker.example'],
    ['PAYRAIL_SANDBOX_RABBIT_QUEUE', 'amq.reserved'],
    ['PAYRAIL_SANDBOX_RABBIT_QUEUE', 'with space'],
  ])('refuses %s=%s', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
  });

  it('parses extra currencies with their exponents', () => {
    expect(loadConfig({ PAYRAIL_EXTRA_CURRENCIES: 'USDT:6,USDC:6' }).extraCurrencies).toEqual({ USDT: 6, USDC: 6 });
  });
});
