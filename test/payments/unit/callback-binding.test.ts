import { describe, expect, it } from 'vitest';
import { callbackBindingRefusal, readCallbackClaims, type CallbackClaimsRead } from '../../../src/payments/domain/callback-binding.ts';

const payment = { gatewayToken: 'gw-1', gatewayAmountMinor: 1999, gatewayCurrency: 'EUR' };
const claims = (extra: Partial<CallbackClaimsRead> = {}): CallbackClaimsRead => ({
  status: 'approved',
  amount: 1999,
  currency: 'EUR',
  gatewayToken: 'gw-1',
  ...extra,
});

describe('callbackBindingRefusal (a callback speaks for its own payment only)', () => {
  it.each<[string, Partial<CallbackClaimsRead>, { gatewayToken?: string | null }, boolean, RegExp | null]>([
    ['matching claims', {}, {}, false, null],
    ['claims without amount, currency or gateway_token', { amount: null, currency: null, gatewayToken: null }, {}, false, null],
    ['a gateway_token when the payment has none yet', { gatewayToken: 'gw-new' }, { gatewayToken: null }, false, null],
    ['another gateway_token', { gatewayToken: 'gw-2' }, {}, false, /gateway_token/],
    ['another amount', { amount: 199_900 }, {}, false, /amount/],
    ['another amount under enable_update_amount', { amount: 1500 }, {}, true, null],
    ['another currency', { currency: 'USD' }, {}, false, /currency/],
    ['another currency under enable_update_amount', { currency: 'USD' }, {}, true, /currency/],
  ])('%s', (_label, claimed, paymentChanges, updateAmount, refusal) => {
    const reason = callbackBindingRefusal({ ...payment, ...paymentChanges }, claims(claimed), { updateAmount });
    if (refusal === null) expect(reason).toBeNull();
    else expect(reason).toMatch(refusal);
  });
});

describe('readCallbackClaims', () => {
  it('reads the claims a callback is judged by', () => {
    expect(readCallbackClaims({ status: 'declined', amount: 10, currency: 'EUR', gateway_token: 'gw', reason: 'x' })).toEqual({
      status: 'declined',
      amount: 10,
      currency: 'EUR',
      gatewayToken: 'gw',
    });
    expect(readCallbackClaims({ status: 'pending', gateway_token: '' })).toEqual({ status: 'pending', amount: null, currency: null, gatewayToken: null });
  });

  it.each([
    [{ status: 'settled' }, /status/],
    [{}, /status/],
    [{ status: 'approved', amount: 1.5 }, /amount/],
    [{ status: 'approved', amount: -1 }, /amount/],
    [{ status: 'approved', amount: '1999' }, /amount/],
    [{ status: 'approved', currency: 978 }, /currency/],
    [{ status: 'approved', gateway_token: 7 }, /gateway_token/],
  ])('refuses %j', (raw, reason) => {
    expect(readCallbackClaims(raw)).toEqual({ refusal: expect.stringMatching(reason) });
  });
});
