import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';

// How long a two-step authorization waits for the merchant's confirm or decline before it is voided.
describe('PAYRAIL_AUTHORIZATION_HOLD_HOURS', () => {
  it('defaults to 168 hours (7 days)', () => {
    expect(loadConfig({}).authorizationHoldHours).toBe(168);
  });

  it.each([
    ['1', 1],
    ['24', 24],
    ['720', 720],
  ])('reads %s', (value, hours) => {
    expect(loadConfig({ PAYRAIL_AUTHORIZATION_HOLD_HOURS: value }).authorizationHoldHours).toBe(hours);
  });

  it.each([['0'], ['721'], ['1.5'], ['-3'], ['a week']])('refuses %s at start', (value) => {
    expect(() => loadConfig({ PAYRAIL_AUTHORIZATION_HOLD_HOURS: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYRAIL_AUTHORIZATION_HOLD_HOURS: value })).toThrow(/PAYRAIL_AUTHORIZATION_HOLD_HOURS/);
  });
});
