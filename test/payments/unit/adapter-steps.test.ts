import { describe, expect, it } from 'vitest';
import {
  checkStepFields,
  readAdapterStep,
  secureCodeProblem,
  type NextStepRequest,
  type SecureCodeRequest,
} from '../../../src/payments/domain/adapter-step.ts';
import { interpretAdapterAnswer } from '../../../src/payments/domain/adapter-outcome.ts';
import { gatewayPublicUrl, readCustomHost } from '../../../src/payments/domain/custom-host.ts';
import {
  nextPendingStep,
  NEXT_STEP_SUBMISSIONS_MAX,
  nextStepRefusal,
  OTP_RESEND_INTERVAL_MS,
  OTP_RESENDS_MAX,
  resendRefusal,
  resendWaitS,
  SECURE_CODE_ATTEMPTS_MAX,
  secureCodeRefusal,
  type PendingStep,
} from '../../../src/payments/domain/pending-step.ts';
import { STEP_NOTICES, stepText } from '../../../src/payments/routes/checkout/step-texts.ts';
import { CHECKOUT_LOCALES } from '../../../src/payments/routes/checkout/locales.ts';

const answer = (body: Record<string, unknown>) => interpretAdapterAnswer({ kind: 'response', body: { result: true, gateway_token: 'gw', logs: [], ...body } });
const code: SecureCodeRequest = { length: 6, kind: 'sms', message: null, resendAllowed: true, attemptsLeft: null };
const NOW = new Date('2030-01-01T12:00:00Z');
const pendingCode = (overrides: Partial<PendingStep> = {}, request: Partial<SecureCodeRequest> = {}): PendingStep => ({
  step: { kind: 'secure_code', secureCode: { ...code, ...request } },
  askedAt: new Date(NOW.getTime() - OTP_RESEND_INTERVAL_MS).toISOString(),
  codeAttempts: 0,
  resends: 0,
  lastResentAt: null,
  submissions: 0,
  ...overrides,
});

describe('reading a step from an adapter answer (issue 10)', () => {
  it('reads a secure_code_request of a pending answer with its defaults', () => {
    expect(answer({ status: 'pending', secure_code_request: {} }).step).toEqual({
      kind: 'secure_code',
      secureCode: { length: null, kind: 'otp', message: null, resendAllowed: true, attemptsLeft: null },
    });
    expect(answer({ status: 'pending', secureCodeRequest: { length: 4, kind: 'email', resend_allowed: false, attempts_left: 2 } }).step).toMatchObject({
      secureCode: { length: 4, kind: 'email', resendAllowed: false, attemptsLeft: 2 },
    });
  });

  it('reads a next_step with its fields, options and defaults', () => {
    const outcome = answer({
      status: 'pending',
      next_step: {
        message: 'More please',
        fields: [
          { name: 'bank', label: 'Bank', type: 'select', options: ['A', { value: 'b', label: 'Bank B' }] },
          { name: 'note', label: 'Note', required: false },
        ],
      },
    });
    expect(outcome.step).toEqual({
      kind: 'next_step',
      nextStep: {
        message: 'More please',
        fields: [
          {
            name: 'bank',
            label: 'Bank',
            type: 'select',
            options: [
              { value: 'A', label: 'A' },
              { value: 'b', label: 'Bank B' },
            ],
            pattern: null,
            maxLength: 256,
            required: true,
          },
          { name: 'note', label: 'Note', type: 'text', options: null, pattern: null, maxLength: 256, required: false },
        ],
      },
    });
  });

  it('asks nothing of an approved or declined answer, even one carrying a step', () => {
    expect(answer({ status: 'approved', secure_code_request: {} }).step).toBeNull();
    expect(answer({ status: 'declined', details: 'no', next_step: { fields: [{ name: 'a', label: 'A' }] } }).step).toBeNull();
  });

  it.each([
    [{ secure_code_request: { length: 3 } }, 'length'],
    [{ secure_code_request: { kind: 'push' } }, 'kind'],
    [{ secure_code_request: { attempts_left: -1 } }, 'attempts_left'],
    [{ secure_code_request: 'yes' }, 'not an object'],
    [{ next_step: { fields: [] } }, 'fields'],
    [{ next_step: { fields: [{ name: '1a', label: 'A' }] } }, 'name'],
    [
      {
        next_step: {
          fields: [
            { name: 'a', label: 'A' },
            { name: 'a', label: 'B' },
          ],
        },
      },
      'repeats',
    ],
    [{ next_step: { fields: [{ name: 'a', label: 'A', type: 'select' }] } }, 'options'],
    [{ next_step: { fields: [{ name: 'a', label: 'A', pattern: '(' }] } }, 'pattern'],
    [{ next_step: { fields: [{ name: 'a', label: 'A', max_length: 1000 }] } }, 'max_length'],
    [{ next_step: { fields: Array.from({ length: 11 }, (_, index) => ({ name: `f${index}`, label: 'F' })) } }, 'fields'],
  ])('refuses the step %j as a whole: pending, no step, the reason as a system error', (step, words) => {
    const outcome = answer({ status: 'pending', ...step });
    expect(outcome.status).toBe('pending');
    expect(outcome.step).toBeNull();
    expect(outcome.systemError).toContain(words);
  });

  it('prefers the secure code when an adapter asks for both', () => {
    expect(readAdapterStep({ secure_code_request: {}, next_step: { fields: [{ name: 'a', label: 'A' }] } })).toMatchObject({ step: { kind: 'secure_code' } });
  });
});

describe('checking what the customer typed', () => {
  it.each([
    [{ length: 6 }, '123456', null],
    [{ length: 6 }, '12345', 'must be 6 letters or digits'],
    [{ length: 4 }, 'ab12', null],
    [{ length: null }, 'X', null],
    [{ length: null }, 'a'.repeat(17), 'must be 1 to 16 letters or digits'],
    [{ length: null }, '12 34', 'must be 1 to 16 letters or digits'],
  ])('a code for %j: %j → %j', (request, typed, problem) => {
    expect(secureCodeProblem({ ...code, ...request }, typed)).toBe(problem);
  });

  const step: NextStepRequest = {
    message: null,
    fields: [
      { name: 'phone', label: 'Phone', type: 'tel', options: null, pattern: null, maxLength: 16, required: true },
      { name: 'email', label: 'E-mail', type: 'email', options: null, pattern: null, maxLength: 100, required: false },
      { name: 'bank', label: 'Bank', type: 'select', options: [{ value: 'a', label: 'A' }], pattern: null, maxLength: 10, required: true },
      { name: 'year', label: 'Year', type: 'text', options: null, pattern: '(19|20)\\d{2}', maxLength: 4, required: true },
    ],
  };

  it('takes values that fit, trimmed, and leaves out empty optional ones', () => {
    expect(checkStepFields(step, { phone: ' +49 151 1234567 ', email: '', bank: 'a', year: '1990' })).toEqual({
      values: { phone: '+49 151 1234567', bank: 'a', year: '1990' },
    });
  });

  it('names every field that breaks the step: unknown, required, too long, type, option, pattern', () => {
    const checked = checkStepFields(step, { phone: '1'.repeat(17), email: 'not-mail', bank: 'z', year: '1815', extra: 'x' });
    expect(checked).toEqual({
      problems: [
        { field: 'extra', problem: 'unknown', message: 'is not a field of this step' },
        { field: 'phone', problem: 'too_long', message: 'must be at most 16 characters' },
        { field: 'email', problem: 'invalid', message: 'must be an e-mail address' },
        { field: 'bank', problem: 'invalid', message: 'must be one of the offered options' },
        { field: 'year', problem: 'invalid', message: 'does not have the expected form' },
      ],
    });
    expect(checkStepFields(step, { bank: 'a', year: '2001' })).toEqual({ problems: [{ field: 'phone', problem: 'required', message: 'is required' }] });
    expect(checkStepFields(step, { phone: ['1'], bank: 'a', year: '2001' })).toMatchObject({ problems: [{ field: 'phone', problem: 'invalid' }] });
  });

  it('matches a pattern against the whole value, not a part of it', () => {
    expect(checkStepFields(step, { phone: '+491511234567', bank: 'a', year: 'x1990' })).toMatchObject({ problems: [{ field: 'year' }] });
  });
});

describe('the stored step and its limits', () => {
  const asked = { step: { kind: 'secure_code' as const, secureCode: code }, systemError: null };

  it('starts a step with fresh counts, keeps the counts when the same kind is asked again, ends it with the payment', () => {
    const started = nextPendingStep(null, asked, 'pay', 'pending', NOW);
    expect(started).toEqual({ step: asked.step, askedAt: NOW.toISOString(), codeAttempts: 0, resends: 0, lastResentAt: null, submissions: 0 });
    const counted = { ...started!, codeAttempts: 2 };
    expect(nextPendingStep(counted, asked, 'confirm_secure_code', 'pending', NOW)).toMatchObject({ codeAttempts: 2 });
    expect(nextPendingStep(counted, asked, 'confirm_secure_code', 'approved', NOW)).toBeNull();
    expect(nextPendingStep(null, { step: null, systemError: null }, 'status', 'approved', NOW)).toBeUndefined();
  });

  it('keeps a step through a status check, a resend answer without one, and an answer that was no answer', () => {
    const current = pendingCode();
    expect(nextPendingStep(current, { step: null, systemError: null }, 'status', 'pending', NOW)).toBeUndefined();
    expect(nextPendingStep(current, { step: null, systemError: null }, 'callback', 'pending', NOW)).toBeUndefined();
    expect(nextPendingStep(current, { step: null, systemError: null }, 'resend_otp', 'pending', NOW)).toBeUndefined();
    expect(nextPendingStep(current, { step: null, systemError: 'timeout' }, 'confirm_secure_code', 'pending', NOW)).toBeUndefined();
    expect(nextPendingStep(current, { step: null, systemError: null }, 'confirm_secure_code', 'pending', NOW)).toBeNull();
  });

  it(`forwards at most ${SECURE_CODE_ATTEMPTS_MAX} codes, and none once the provider says no attempts are left`, () => {
    expect(secureCodeRefusal(pendingCode({ codeAttempts: SECURE_CODE_ATTEMPTS_MAX - 1 }))).toBeNull();
    expect(secureCodeRefusal(pendingCode({ codeAttempts: SECURE_CODE_ATTEMPTS_MAX }))?.code).toBe('secure_code_attempts_exhausted');
    expect(secureCodeRefusal(pendingCode({}, { attemptsLeft: 0 }))?.code).toBe('secure_code_attempts_exhausted');
    expect(secureCodeRefusal(null)?.code).toBe('step_not_pending');
  });

  it(`sends the code again at most ${OTP_RESENDS_MAX} times, ${OTP_RESEND_INTERVAL_MS / 1000} s apart`, () => {
    expect(resendRefusal(pendingCode(), NOW)).toBeNull();
    const justAsked = pendingCode({ askedAt: new Date(NOW.getTime() - 10_000).toISOString() });
    expect(resendRefusal(justAsked, NOW)).toMatchObject({ code: 'otp_resend_too_soon', retryAfterS: 20 });
    expect(resendWaitS(justAsked, NOW)).toBe(20);
    const resentNow = pendingCode({ resends: 1, lastResentAt: NOW.toISOString() });
    expect(resendRefusal(resentNow, NOW)?.code).toBe('otp_resend_too_soon');
    expect(resendRefusal(pendingCode({ resends: OTP_RESENDS_MAX }), NOW)?.code).toBe('otp_resend_limit');
    expect(resendWaitS(pendingCode({ resends: OTP_RESENDS_MAX }), NOW)).toBeNull();
    expect(resendRefusal(pendingCode({}, { resendAllowed: false }), NOW)?.code).toBe('otp_resend_not_allowed');
  });

  it(`takes a next step at most ${NEXT_STEP_SUBMISSIONS_MAX} times`, () => {
    const nextStep: PendingStep = { ...pendingCode(), step: { kind: 'next_step', nextStep: { message: null, fields: [] } } };
    expect(nextStepRefusal(nextStep)).toBeNull();
    expect(nextStepRefusal({ ...nextStep, submissions: NEXT_STEP_SUBMISSIONS_MAX })?.code).toBe('next_step_submissions_exhausted');
    expect(nextStepRefusal(pendingCode())?.code).toBe('step_not_pending');
  });
});

describe('custom_host (spec 2.10)', () => {
  it.each([
    ['pay.brand.example', 'https://pay.test', 'https://pay.brand.example'],
    ['PAY.Brand.example:8443', 'https://pay.test', 'https://pay.brand.example:8443'],
    ['http://checkout.example:8080', 'https://pay.test:8443', 'http://checkout.example:8080'],
    ['https://checkout.example/', 'https://pay.test:8443', 'https://checkout.example'],
    ['pay.brand.example', 'https://pay.test/payrail', 'https://pay.brand.example/payrail'],
  ])('%s on %s is %s', (customHost, publicUrl, expected) => {
    expect(gatewayPublicUrl(publicUrl, customHost)).toBe(expected);
  });

  it('leaves the public URL alone without a custom host, or with one that does not read', () => {
    expect(gatewayPublicUrl('https://pay.test', undefined)).toBe('https://pay.test');
    expect(gatewayPublicUrl('https://pay.test', '  ')).toBe('https://pay.test');
    expect(gatewayPublicUrl('https://pay.test', 'bad host')).toBe('https://pay.test');
  });

  it.each(['host/path', 'https://h.example?x=1', 'a@h.example', 'h.example:0', 'h.example:1:2', '-h.example', 'h_x.example', `${'a'.repeat(64)}.example`])(
    'refuses %s',
    (customHost) => {
      expect(readCustomHost(customHost)).toHaveProperty('problem');
    },
  );
});

describe('step page texts', () => {
  it('say every notice in every locale', () => {
    for (const locale of CHECKOUT_LOCALES) {
      for (const notice of STEP_NOTICES) expect(stepText(locale).notices[notice].length).toBeGreaterThan(3);
    }
  });
});
