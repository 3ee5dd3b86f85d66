import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { earliestValidMonthIndex } from '../../../src/platform/lib/card-checks.ts';
import { DECLINE_REASONS } from '../../../src/sandbox-adapter/test-cards.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterCall, startSandboxFixture, statusBody, tokenOfBody, type SandboxFixture } from './sandbox-support.ts';

const engines = await testEngines();

// MM/YY as Payrail sends it to an adapter, `monthsFromNow` months after the first month a card may still end in.
function expiresIn(monthsFromNow: number): string {
  const monthIndex = earliestValidMonthIndex(new Date()) + monthsFromNow;
  return `${String((monthIndex % 12) + 1).padStart(2, '0')}/${String(Math.floor(monthIndex / 12)).slice(-2)}`;
}

describe.each(engines)('the sandbox declines an expired card, on %s', (engine) => {
  let sandbox: SandboxFixture;

  beforeAll(async () => {
    sandbox = await startSandboxFixture(engine);
  });
  afterAll(async () => sandbox?.close());

  const payWith = (pan: string, expires: string, settings: Record<string, unknown> = {}) => {
    const body = sandbox.payBody({ pan, callbackUrl: sandbox.receiver.url, settings }) as { params: Record<string, unknown> };
    body.params['expires'] = expires;
    return body;
  };

  it.each([
    ['4242 4242 4242 4242', expiresIn(-1)],
    ['4000 0000 0000 3220', expiresIn(-1)], // 3-D Secure card: no authentication for a card that cannot pay
    ['4000 0000 0000 1018', expiresIn(-12)], // callback card: declined at once, no callback to wait for
    ['4111 1111 1111 1111', '01/20'], // not a test card: still "Expired card", the reason an issuer gives first
  ])('declines %s expiring %s with "Expired card", and /status says the same', async (pan, expires) => {
    const body = payWith(pan, expires);
    const pay = await adapterCall(sandbox.app, 'pay', body);
    expect(pay.answer).toMatchObject({ result: true, status: 'declined', details: DECLINE_REASONS.expiredCard });
    expect(pay.answer.redirect_request).toBeUndefined();
    const status = await adapterCall(sandbox.app, 'status', statusBody(tokenOfBody(body), pay.answer.gateway_token ?? null));
    expect(status.answer).toMatchObject({ result: true, status: 'declined', details: DECLINE_REASONS.expiredCard });
  });

  it('approves a card through the end of its month, and one that expires later', async () => {
    for (const expires of [expiresIn(0), expiresIn(1), expiresIn(60)]) {
      const pay = await adapterCall(sandbox.app, 'pay', payWith('4242 4242 4242 4242', expires));
      expect(pay.answer, expires).toMatchObject({ result: true, status: 'approved' });
    }
  });

  it('keeps the production refusal ahead of the expiry: a sandbox gateway outside sandbox mode says so', async () => {
    const pay = await adapterCall(sandbox.app, 'pay', payWith('4242 4242 4242 4242', expiresIn(-1), { sandbox: false }));
    expect(pay.answer).toMatchObject({ result: true, status: 'declined', details: DECLINE_REASONS.sandboxCardInProduction });
  });
});
