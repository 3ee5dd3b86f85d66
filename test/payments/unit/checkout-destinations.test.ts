import { describe, expect, it } from 'vitest';
import { merchantDestination, shopUrl } from '../../../src/payments/routes/checkout/destinations.ts';
import type { PaymentRow } from '../../../src/payments/store/payments-repo.ts';

const payment = (status: string, updatedAgoMs = 0) =>
  ({
    status,
    token: 'a'.repeat(32),
    redirectSuccessUrl: 'https://shop.example/ok',
    redirectFailUrl: 'https://shop.example/fail',
    pendingUrl: 'https://shop.example/wait',
    updatedAt: new Date(Date.now() - updatedAgoMs),
  }) as PaymentRow;

describe("a failed payment's way back to the shop", () => {
  it('is the fail URL when given, else the origin of the success or pending URL, else none', () => {
    expect(shopUrl(payment('declined'))).toBe('https://shop.example/fail?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=declined');
    expect(shopUrl({ ...payment('declined'), redirectFailUrl: null } as PaymentRow)).toBe('https://shop.example/');
    expect(shopUrl({ ...payment('expired'), redirectFailUrl: null, redirectSuccessUrl: null } as PaymentRow)).toBe('https://shop.example/');
    expect(shopUrl({ ...payment('declined'), redirectFailUrl: null, redirectSuccessUrl: null, pendingUrl: null } as PaymentRow)).toBeNull();
  });
});

describe('where the customer ends', () => {
  it.each([
    ['approved', 'https://shop.example/ok?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=approved'],
    ['authorized', 'https://shop.example/ok?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=authorized'],
    ['declined', 'https://shop.example/fail?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=declined'],
    ['expired', 'https://shop.example/fail?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=expired'],
    ['cancelled', 'https://shop.example/fail?token=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa&status=cancelled'],
  ])('sends a %s payment to the merchant', (status, url) => {
    expect(merchantDestination(payment(status))).toBe(url);
  });

  it('keeps an init or freshly pending payment on our pages, and sends a long-pending one to pendingUrl', () => {
    expect(merchantDestination(payment('init'))).toBeNull();
    expect(merchantDestination(payment('pending'))).toBeNull();
    expect(merchantDestination(payment('pending', 60_000))).toContain('https://shop.example/wait?');
  });
});
