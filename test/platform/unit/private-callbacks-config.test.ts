import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';

const POSTGRES = 'postgres://payrail@db.internal:5432/payrail';

// Callbacks to private addresses are a convenience of the embedded development start only.
describe('PAYRAIL_ALLOW_PRIVATE_CALLBACKS', () => {
  it.each([
    ['the embedded development start', {}, true],
    ['NODE_ENV=development, embedded', { NODE_ENV: 'development' }, true],
    ['NODE_ENV=test, embedded', { NODE_ENV: 'test' }, true],
    ['NODE_ENV=production, embedded', { NODE_ENV: 'production' }, false],
    ['NODE_ENV=production with PostgreSQL', { NODE_ENV: 'production', DATABASE_URL: POSTGRES }, false],
    ['development with PostgreSQL', { DATABASE_URL: POSTGRES }, false],
    ['explicitly off in development', { PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '0' }, false],
    ['explicitly on in production (on-premise)', { NODE_ENV: 'production', PAYRAIL_ALLOW_PRIVATE_CALLBACKS: '1' }, true],
  ])('%s → %s', (_label, environment, expected) => {
    expect(loadConfig(environment).allowPrivateCallbacks).toBe(expected);
  });
});
