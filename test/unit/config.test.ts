import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';

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

  it('parses extra currencies with their exponents', () => {
    expect(loadConfig({ PAYRAIL_EXTRA_CURRENCIES: 'USDT:6,USDC:6' }).extraCurrencies).toEqual({ USDT: 6, USDC: 6 });
  });
});
