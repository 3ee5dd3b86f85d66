import { Compile } from 'typebox/compile';
import { describe, expect, it } from 'vitest';
import {
  ADAPTER_METHODS,
  AdapterSettingsSchema,
  CallbackClaimsSchema,
  LOG_KINDS,
  NextStepSchema,
  REQUEST_SCHEMAS,
  RESPONSE_TIMEOUT_S_MAX,
  SecureCodeRequestSchema,
  STEP_LIMITS,
} from '@payrail/adapter-kit';

// The contract's schemas as Payrail reads them: the limits it enforces are the kit's, one definition.

const claims = Compile(CallbackClaimsSchema);
const settings = Compile(AdapterSettingsSchema);
const nextStep = Compile(NextStepSchema);
const secureCode = Compile(SecureCodeRequestSchema);
const secure = { encrypted_data: 'ZGF0YQ==', iv_value: 'aXY=' };

describe('the callback claims schema (spec 5.6)', () => {
  it('takes a status with the secure merchant key; amount, currency and gateway_token only when given', () => {
    expect(claims.Check({ status: 'approved', secure })).toBe(true);
    expect(claims.Check({ status: 'declined', amount: 1250, currency: 'EUR', gateway_token: 'gw_1', reason: 'no funds', logs: [], secure })).toBe(true);
    expect(claims.Check({ status: 'pending', gateway_token: null, secure })).toBe(true);
  });

  it.each([
    ['no status', { secure }],
    ['no secure', { status: 'approved' }],
    ['a fractional amount', { status: 'approved', amount: 1.5, secure }],
    ['a negative amount', { status: 'approved', amount: -1, secure }],
    ['an amount past the safe integers', { status: 'approved', amount: 2 ** 53, secure }],
    ['an amount as text', { status: 'approved', amount: '1999', secure }],
    ['an empty currency', { status: 'approved', currency: '', secure }],
    ['a numeric gateway_token', { status: 'approved', gateway_token: 7, secure }],
    ['a secure without its iv', { status: 'approved', secure: { encrypted_data: 'x' } }],
  ])('refuses %s', (_name, value) => {
    expect(claims.Check(value)).toBe(false);
  });
});

describe('the settings schema (spec 2.10)', () => {
  it('bounds response_timeout to whole seconds from 1 to 120, the limit Payrail enforces', () => {
    expect(RESPONSE_TIMEOUT_S_MAX).toBe(120);
    const withTimeout = (response_timeout: unknown) => ({ gateway_settings: { methods: { pay: { response_timeout } } } });
    expect(settings.Check(withTimeout(1))).toBe(true);
    expect(settings.Check(withTimeout(120))).toBe(true);
    for (const refused of [0, 121, 600, 1.5]) expect(settings.Check(withTimeout(refused))).toBe(false);
  });

  it('names one method settings entry per log kind: every method, and callback after status as spec 2.10 lists them', () => {
    expect(LOG_KINDS).toEqual(['pay', 'payout', 'status', 'callback', ...ADAPTER_METHODS.slice(3)]);
    expect(new Set(LOG_KINDS)).toEqual(new Set([...ADAPTER_METHODS, 'callback']));
    expect(Object.keys(REQUEST_SCHEMAS)).toEqual([...ADAPTER_METHODS]);
  });

  it('takes a payment method of the three Payrail knows', () => {
    expect(settings.Check({ payment_method: 'bank_account' })).toBe(true);
    expect(settings.Check({ payment_method: 'crypto' })).toBe(false);
  });
});

describe('the step schemas (issue 10)', () => {
  const field = (overrides: Record<string, unknown>) => ({ fields: [{ name: 'phone', label: 'Phone', ...overrides }] });

  it('takes a secure code request within its bounds', () => {
    expect(secureCode.Check({ length: STEP_LIMITS.secureCodeLengthMin, kind: 'sms', attempts_left: STEP_LIMITS.attemptsLeftMax })).toBe(true);
    expect(secureCode.Check({ length: STEP_LIMITS.secureCodeLengthMax + 1 })).toBe(false);
    expect(secureCode.Check({ kind: 'push' })).toBe(false);
  });

  it('bounds a next step: its fields, labels, options and patterns', () => {
    expect(nextStep.Check(field({ type: 'select', options: ['a', { value: 'b', label: 'B' }] }))).toBe(true);
    expect(nextStep.Check({ fields: [] })).toBe(false);
    expect(nextStep.Check(field({ label: '' }))).toBe(false);
    expect(nextStep.Check(field({ label: 'L'.repeat(STEP_LIMITS.labelCharsMax + 1) }))).toBe(false);
    expect(nextStep.Check(field({ options: [''] }))).toBe(false);
    expect(nextStep.Check(field({ options: [{ value: 'v', label: 'x'.repeat(STEP_LIMITS.optionCharsMax + 1) }] }))).toBe(false);
    expect(nextStep.Check(field({ pattern: '' }))).toBe(false);
    expect(nextStep.Check(field({ max_length: STEP_LIMITS.fieldCharsMax + 1 }))).toBe(false);
    expect(nextStep.Check(field({ name: '1phone' }))).toBe(false);
  });
});
