import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { UnbalancedPostingError, type LedgerPosting } from '../../../src/ledger/domain/ledger-postings.ts';
import {
  chargePaid,
  chargeReceived,
  transferCredited,
  transferDebited,
  transferPosting,
  WALLET_AMOUNT_MINOR_MAX,
} from '../../../src/core-banking/domain/wallet-postings.ts';

const moved = (posting: LedgerPosting) => Object.fromEntries(posting.entries.map((entry) => [entry.account, entry.amountMinor]));
const sum = (posting: LedgerPosting) => posting.entries.reduce((total, entry) => total + entry.amountMinor, 0);

describe("a profile's wallet postings", () => {
  it.each([
    ['transfer_credited', transferCredited, { banks: -1050, wallet: 1050 }, 0],
    ['transfer_debited', transferDebited, { wallet: -1050, banks: 1050 }, 1050],
    ['charge_paid', chargePaid, { wallet: -1050, clearing: 1050 }, 1050],
    ['charge_received', chargeReceived, { clearing: -1050, wallet: 1050 }, 0],
  ] as const)('%s moves its amount between the right accounts and guards only a wallet debit', (kind, build, accounts, guarded) => {
    const posting = build(1050, 'EUR');
    expect(posting.kind).toBe(kind);
    expect(posting.currency).toBe('EUR');
    expect(moved(posting)).toEqual(accounts);
    expect(posting.guardedDebitMinor).toBe(guarded);
  });

  it('balances every posting for every amount, and a paid charge nets to zero in clearing', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: WALLET_AMOUNT_MINOR_MAX }), (amount) => {
        for (const build of [transferCredited, transferDebited, chargePaid, chargeReceived]) expect(sum(build(amount, 'USD'))).toBe(0);
        expect(moved(chargePaid(amount, 'USD')).clearing! + moved(chargeReceived(amount, 'USD')).clearing!).toBe(0);
        expect(moved(chargePaid(amount, 'USD')).wallet! + moved(chargeReceived(amount, 'USD')).wallet!).toBe(0);
      }),
    );
  });

  it('picks the transfer posting from the direction', () => {
    expect(transferPosting('credit', 5, 'JPY').kind).toBe('transfer_credited');
    expect(transferPosting('debit', 5, 'JPY').kind).toBe('transfer_debited');
  });

  it.each([0, -1, 1.5, WALLET_AMOUNT_MINOR_MAX + 1, Number.NaN])('refuses to post %s minor units', (amount) => {
    for (const build of [transferCredited, transferDebited, chargePaid, chargeReceived]) {
      expect(() => build(amount, 'EUR')).toThrow(UnbalancedPostingError);
    }
  });
});
