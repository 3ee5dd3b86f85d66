import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/platform/config.ts';

// PAYRAIL_SANDBOX_STATUS_RATES follows the rules of a gateway's status_checker_time_rates (one parser),
// and a bad one stops the start instead of the first status check.
describe('PAYRAIL_SANDBOX_STATUS_RATES', () => {
  it('defaults to 1-3: 30 s, 4-6: 60 s, 7-: 300 s', () => {
    expect(loadConfig({}).sandboxStatusRates).toEqual({ '1-3': 30, '4-6': 60, '7-': 300 });
  });

  it('reads a valid schedule', () => {
    expect(loadConfig({ PAYRAIL_SANDBOX_STATUS_RATES: '1-2:5,3-:20' }).sandboxStatusRates).toEqual({ '1-2': 5, '3-': 20 });
  });

  it.each([
    ['1-2:30,5-:60', 'attempt 3 is not covered: "1-2" is followed by "5-"'],
    ['0-3:10,4-:60', '"0-3" starts at attempt 0; attempts count from 1'],
    ['1-3:30,4-6:60', 'the last range "4-6" must be open-ended, like "4-"'],
    ['1-:0', '"1-" must wait a whole number of seconds from 1 to 86400, got 0'],
    ['1-3:30;4-:60', '"1-3:30;4-:60" is not a range and its seconds, like "1-3:30" or "7-:300"'],
  ])('refuses %s at start, saying why', (value, reason) => {
    expect(() => loadConfig({ PAYRAIL_SANDBOX_STATUS_RATES: value })).toThrow(ConfigError);
    expect(() => loadConfig({ PAYRAIL_SANDBOX_STATUS_RATES: value })).toThrow(`invalid configuration: PAYRAIL_SANDBOX_STATUS_RATES ${reason}`);
  });
});
