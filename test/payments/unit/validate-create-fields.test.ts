import { describe, expect, it } from 'vitest';
import { FULL_A, FULL_B, validate, withValue, type Body } from './validate-create.fixtures.ts';

// spec 2.1 and 8: [variant, field, min, max]
const LENGTH_RULES: ReadonlyArray<readonly [string, string, number, number]> = [
  ['A', 'product', 5, 255],
  ['B', 'product', 2, 255],
  ['A', 'extraReturnParam', 1, 1024],
  ['B', 'extra_return_param', 1, 1024],
  ['A', 'orderNumber', 3, 255],
  ['B', 'order_number', 3, 255],
  ['A', 'walletToken', 1, 255],
  ['A', 'recurringToken', 1, 255],
  ['A', 'card.holder', 1, 100],
  ['A', 'customer.address', 5, 55],
  ['A', 'customer.city', 4, 55],
  ['A', 'customer.region', 5, 55],
  ['A', 'customer.postcode', 4, 55],
  ['A', 'customer.phone', 6, 20],
  ['A', 'customer.first_name', 1, 100],
  ['A', 'customer.last_name', 1, 100],
  ['B', 'customer.name', 1, 100],
  ['B', 'customer.surname', 1, 100],
  ['A', 'bank_account.bank_name', 1, 255],
  ['A', 'bank_account.account_number', 1, 64],
];

function baseOf(variant: string): Body {
  return variant === 'A' ? FULL_A : FULL_B;
}

describe('length rules', () => {
  describe.each(LENGTH_RULES)('variant %s %s (%i..%i)', (variant, field, min, max) => {
    it(`rejects ${min - 1} characters`, () => {
      expect(validate(withValue(baseOf(variant), field, 'x'.repeat(min - 1)))).toEqual({
        ok: false,
        errors: [{ code: 'invalid_field', field, message: `must be at least ${min} characters` }],
      });
    });
    it.each([min, max])('accepts %i characters', (length) => {
      expect(validate(withValue(baseOf(variant), field, 'x'.repeat(length))).ok).toBe(true);
    });
    it(`rejects ${max + 1} characters`, () => {
      expect(validate(withValue(baseOf(variant), field, 'x'.repeat(max + 1)))).toEqual({
        ok: false,
        errors: [{ code: 'invalid_field', field, message: `must be at most ${max} characters` }],
      });
    });
  });

  it.each([
    ['callbackUrl', 2048, null],
    ['callbackUrl', 2049, 'must be at most 2048 characters'],
    ['merchantUrl', 2049, 'must be at most 2048 characters'],
  ])('limits %s to 2048 characters (%i)', (field, length, message) => {
    const url = `https://merchant.example/${'p'.repeat(length - 'https://merchant.example/'.length)}`;
    expect(url).toHaveLength(length);
    const result = validate(withValue(FULL_A, field, url));
    expect(result).toEqual(
      message === null
        ? expect.objectContaining({ ok: true })
        : {
            ok: false,
            errors: [{ code: 'invalid_field', field, message }],
          },
    );
  });

  it.each([
    [254, null],
    [255, 'must be at most 254 characters'],
  ])('limits customer.email to 254 characters (%i)', (length, message) => {
    const labels = `${'b'.repeat(49)}.`.repeat(3);
    const email = `${'a'.repeat(64)}@${labels}${'b'.repeat(length - 64 - 1 - labels.length - 4)}.com`;
    expect(email).toHaveLength(length);
    const result = validate(withValue(FULL_A, 'customer.email', email));
    expect(result).toEqual(
      message === null
        ? expect.objectContaining({ ok: true })
        : {
            ok: false,
            errors: [{ code: 'invalid_field', field: 'customer.email', message }],
          },
    );
  });
});

// [field, value, expected message or null when valid]
const FORMAT_RULES: ReadonlyArray<readonly [string, unknown, string | null]> = [
  ['card.pan', '4111 1111 1111 1111', null],
  ['card.pan', '4111111111111111', null],
  ['card.pan', '4111111111111111110', null],
  ['card.pan', ' 4111  1111 1111 1111 ', null],
  ['card.pan', '501800000009', null], // Maestro: 12 digits
  ['card.pan', '411111111111111', 'must have 13, 16, 19 digits for Visa'],
  ['card.pan', '4111111111111112', 'fails the Luhn check: a digit is mistyped'],
  ['card.pan', '41111111111', 'must be 12 to 19 digits, optionally separated by spaces'],
  ['card.pan', '41111111111111111111', 'must be 12 to 19 digits, optionally separated by spaces'],
  ['card.pan', '4111 1111 1111 111a', 'must be 12 to 19 digits, optionally separated by spaces'],
  ['card.pan', '4111-1111-1111-1111', 'must be 12 to 19 digits, optionally separated by spaces'],
  ['card.pan', `4111111111111111${' '.repeat(17)}`, 'must be at most 32 characters'],
  ['card.pan', 4111111111111111, 'must be a string'],
  ['card.expires', '12/2030', null],
  ['card.expires', '01/2030', null],
  ['card.expires', '00/2030', 'must be mm/yyyy with a month from 01 to 12'],
  ['card.expires', '13/2030', 'must be mm/yyyy with a month from 01 to 12'],
  ['card.expires', '1/2030', 'must be mm/yyyy with a month from 01 to 12'],
  ['card.expires', '12/30', 'must be mm/yyyy with a month from 01 to 12'],
  ['card.cvv', '123', null],
  ['card.cvv', '12', 'must be 3 digits (4 for American Express)'],
  ['card.cvv', '1234', 'must be 3 digits for Visa'],
  ['card.cvv', '12345', 'must be 3 digits (4 for American Express)'],
  ['card.cvv', '12a', 'must be 3 digits (4 for American Express)'],
  ['card.holder', 'Yi', null],
  ['card.holder', '李', null],
  ['card.holder', 'Ян', null],
  ['card.holder', "  Mary-Jane O'Neil Jr. ", null],
  ['card.holder', 'R2-D2', 'must be letters of any script, spaces, dots, apostrophes or hyphens, with at least one letter'],
  ['card.holder', ' - ', 'must be letters of any script, spaces, dots, apostrophes or hyphens, with at least one letter'],
  ['card.cvv', 123, 'must be a string'],
  ['customer.country', 'US', null],
  ['customer.country', 'us', 'country code "us" must be upper-case'],
  ['customer.country', 'XX', 'unknown country code "XX"'],
  ['customer.country', 'USA', 'unknown country code "USA"'],
  ['customer.ip', '127.0.0.1', null],
  ['customer.ip', '::1', null],
  ['customer.ip', '2001:db8::8a2e:370:7334', null],
  ['customer.ip', '999.1.1.1', 'must be a valid IPv4 or IPv6 address'],
  ['customer.ip', 'localhost', 'must be a valid IPv4 or IPv6 address'],
  ['customer.email', 'jo.doe+shop@example.co.uk', null],
  ['customer.email', 'jo@', 'must be a valid e-mail address'],
  ['customer.email', 'jo example.com', 'must be a valid e-mail address'],
  ['callbackUrl', 'https://merchant.example/cb?order=1', null],
  ['callbackUrl', 'HTTP://localhost:8080/cb', null],
  ['callbackUrl', 'ftp://merchant.example/cb', 'must be an http or https URL'],
  ['callbackUrl', 'mailto:shop@merchant.example', 'must be an http or https URL'],
  ['callbackUrl', 'http://', 'must be an http or https URL'],
  ['callbackUrl', 'not a url', 'must be a valid URI'],
  ['redirectSuccessUrl', 'https://exa mple.com/', 'must be a valid URI'],
  ['pendingUrl', 'javascript:alert(1)', 'must be an http or https URL'],
  ['recurring_data.exp_date', '20240229', null],
  ['recurring_data.exp_date', '20000229', null],
  ['recurring_data.exp_date', '20230229', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.exp_date', '19000229', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.exp_date', '20240230', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.exp_date', '20241301', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.exp_date', '20240100', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.exp_date', '2024-02-29', 'must be a real date in YYYYMMDD format'],
  ['recurring_data.days', 1, null],
  ['recurring_data.days', 3660, null],
  ['recurring_data.days', 0, 'must be at least 1'],
  ['recurring_data.days', 3661, 'must be at most 3660'],
  ['recurring_data.days', 1.5, 'must be an integer'],
  ['expires_at', 1, null],
  ['expires_at', 43200, null],
  ['expires_at', 0, 'must be at least 1'],
  ['expires_at', 43201, 'must be at most 43200'],
  ['locale', 'jp', null],
  ['locale', 'ru', 'must be one of en, zh, jp'],
  ['locale', 'EN', 'must be one of en, zh, jp'],
  ['bank_account.requisite_type', 'sbp', null],
  ['bank_account.requisite_type', 'url', 'must be one of sbp, card, account, link'],
  ['recurring', 'true', 'must be a boolean'],
  ['needConfirmation', 1, 'must be a boolean'],
  ['customer.browser.color_depth', '24', 'must be a number'],
  ['customer.browser.java_enabled', 'yes', 'must be a boolean'],
  ['customer.browser.device_memory', 8, null],
  ['product', 'Café ✓ widget', null],
  ['product', 'Wid\u0000get', 'must not contain control characters'],
  ['product', 'Widget\n', 'must not contain control characters'],
  ['card.holder', 'JOHN\tDOE', 'must be letters of any script, spaces, dots, apostrophes or hyphens, with at least one letter'],
  ['customer.browser.user_agent', 'Mozilla\u001F', 'must not contain control characters'],
  ['extraReturnParam', '\u001B[31m', 'must not contain control characters'],
  ['callbackUrl', 'https://merchant.example/\u0001', 'must be a valid URI'],
];

describe('format rules', () => {
  it.each(FORMAT_RULES)('%s = %j → %s', (field, value, message) => {
    const result = validate(withValue(FULL_A, field, value));
    if (message === null) {
      expect(result).toEqual(expect.objectContaining({ ok: true }));
    } else {
      expect(result).toEqual({ ok: false, errors: [{ code: 'invalid_field', field, message }] });
    }
  });
});
