import { describe, expect, it } from 'vitest';
import { MONEY_CHARGE_STATUSES } from '../../../src/core-banking/domain/core-banking-values.ts';
import { decideChargeAction, parsePayerReference, type ChargeAction } from '../../../src/core-banking/domain/money-charges.ts';

const REQUESTER = 1;
const PAYER = 2;
const STRANGER = 3;

describe('who may pay, decline or cancel a money charge', () => {
  it.each([
    ['pay', PAYER, 'paid'],
    ['decline', PAYER, 'declined'],
    ['cancel', REQUESTER, 'cancelled'],
  ] as const)('%s by its party (%i) ends a pending charge as %s', (action, actor, to) => {
    expect(decideChargeAction({ requesterId: REQUESTER, payerId: PAYER, status: 'pending' }, actor, action)).toEqual({ ok: true, to });
  });

  it.each([
    ['pay', REQUESTER],
    ['pay', STRANGER],
    ['decline', REQUESTER],
    ['decline', STRANGER],
    ['cancel', PAYER],
    ['cancel', STRANGER],
  ] as const)('%s by a user who is not its party (%i) is not found, like a missing charge', (action, actor) => {
    expect(decideChargeAction({ requesterId: REQUESTER, payerId: PAYER, status: 'pending' }, actor, action)).toEqual({ ok: false, problem: 'not_found' });
    expect(decideChargeAction(null, actor, action)).toEqual({ ok: false, problem: 'not_found' });
  });

  it('refuses every action on a charge that is no longer pending, and still hides it from strangers', () => {
    const actions: [ChargeAction, number][] = [
      ['pay', PAYER],
      ['decline', PAYER],
      ['cancel', REQUESTER],
    ];
    for (const status of MONEY_CHARGE_STATUSES.filter((value) => value !== 'pending')) {
      for (const [action, actor] of actions) {
        expect(decideChargeAction({ requesterId: REQUESTER, payerId: PAYER, status }, actor, action)).toEqual({ ok: false, problem: 'not_pending' });
        expect(decideChargeAction({ requesterId: REQUESTER, payerId: PAYER, status }, STRANGER, action)).toEqual({ ok: false, problem: 'not_found' });
      }
    }
  });
});

describe('naming the payer', () => {
  it.each([
    [42, { by: 'id', id: 42 }],
    ['42', { by: 'id', id: 42 }],
    ['Ada@Example.COM', { by: 'email', email: 'ada@example.com' }],
    [' ada@example.com ', { by: 'email', email: 'ada@example.com' }],
    ['+44 7700 900123', { by: 'phone', phone: '+447700900123' }],
    ['+1 (555) 010-9999', { by: 'phone', phone: '+15550109999' }],
  ])('reads %j', (payer, reference) => {
    expect(parsePayerReference(payer)).toEqual(reference);
  });

  it.each([0, -3, 1.5, '0', '', 'ada', 'ada@', '@example.com', 'a b@example.com', '447700900123x', '+12', `+${'1'.repeat(21)}`])('refuses %j', (payer) => {
    expect(parsePayerReference(payer)).toBeNull();
  });
});
