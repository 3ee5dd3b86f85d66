import { afterAll, describe, expect, it } from 'vitest';
import { runConformance, type ConformanceOptions, type ConformanceReport } from '@payrail/adapter-kit/conformance';
import { QUIRKY_CARDS, startQuirkyAdapter, type QuirkyAdapter, type Quirks } from './support/quirky-adapter.ts';

// The suite's verdict on each check, for an adapter nobody here wrote: conformant in the unusual ways the contract
// allows, then with one fault at a time. Each adapter is a real HTTP server; the provider it calls during the
// provider checks is the suite's own stub, named by providerUrlSetting.

const SIGN_KEY = 'verdicts-sign-key-0123456789abcd'; // 32 characters
const PROVIDER_URL_SETTING = 'gateway_settings.provider_url';
const WITHOUT_PROVIDER = { providerUrlSetting: undefined }; // for checks the provider stub plays no part in (faster)

const outcomeOf = (report: ConformanceReport, name: string) => report.checks.find((check) => check.name === name)?.outcome;
const reasonOf = (report: ConformanceReport, name: string) => report.checks.find((check) => check.name === name)?.reason ?? '';
const failedNames = (report: ConformanceReport) => report.checks.filter((check) => check.outcome === 'fail').map((check) => check.name);

describe('the conformance suite’s verdicts', () => {
  const adapters: QuirkyAdapter[] = [];
  afterAll(async () => {
    for (const adapter of adapters) await adapter.close();
  });
  async function check(quirks: Quirks, options: Partial<ConformanceOptions> = {}): Promise<ConformanceReport> {
    const adapter = await startQuirkyAdapter(SIGN_KEY, quirks);
    adapters.push(adapter);
    return runConformance({
      url: adapter.url,
      signKey: SIGN_KEY,
      timeoutMs: 5000,
      callbackWaitMs: 2000,
      cardApprove: QUIRKY_CARDS.approve,
      cardDecline: QUIRKY_CARDS.decline,
      cardCallback: QUIRKY_CARDS.callback,
      providerUrlSetting: PROVIDER_URL_SETTING,
      ...options,
    });
  }

  it('passes an unusual but conformant adapter: bare log items, logs: [] on refusals, no /payout or /refund', async () => {
    const report = await check({});
    expect(failedNames(report)).toEqual([]);
    expect(report.passed).toBe(true);
    const passes = [
      'pay/logs',
      'pay/amount',
      'pay-malformed/logs',
      'status-unknown/logs',
      'status/amount',
      'status-no-gateway-token/reply-shape',
      'status-no-gateway-token/amount',
      'pay-repeat/same-payment',
      'amount/JPY-1000/pay',
      'amount/JPY-1000/status',
      'amount/KWD-12.345/pay',
      'amount/KWD-12.345/status',
      'amount/USD-19.99/pay',
      'amount/USD-19.99/status',
      'pay-without-card/reply-shape',
      'pay-bank-account/reply-shape',
      'provider-5xx/answer',
      'provider-timeout/answer',
      'signature/wrong/not-processed',
      'signature/missing/not-processed',
      'callback/pending-card',
      'callback/all-verify',
    ];
    for (const name of passes) expect({ name, outcome: outcomeOf(report, name) }).toEqual({ name, outcome: 'pass' });
    expect(reasonOf(report, 'status-unknown/logs')).toContain('logs: []');
    // /payout and /refund answer 404: not implemented, which the contract allows.
    for (const name of ['payout/supported', 'refund/supported', 'payout-malformed/refused', 'refund-malformed/refused']) {
      expect({ name, outcome: outcomeOf(report, name) }).toEqual({ name, outcome: 'skip' });
    }
    expect(reasonOf(report, 'payout/supported')).toContain('HTTP 404');
  });

  it('fails an adapter that reaches its provider with an unsigned call, seen at the provider stub', async () => {
    const report = await check({ processUnsigned: true }, { cardCallback: undefined });
    expect(outcomeOf(report, 'signature/wrong/refused')).toBe('pass'); // it does answer result false…
    expect(outcomeOf(report, 'signature/wrong/not-processed')).toBe('fail'); // …after calling the provider
    expect(outcomeOf(report, 'signature/missing/not-processed')).toBe('fail');
    expect(reasonOf(report, 'signature/wrong/not-processed')).toContain('provider stub received 1 request(s)');
    expect(report.passed).toBe(false);
  });

  it('fails a /status answering 100 times the amount, and reports each amount tried', async () => {
    const report = await check({ amountFactor: 100 }, { cardCallback: undefined, ...WITHOUT_PROVIDER });
    expect(failedNames(report)).toEqual([
      'status/amount',
      'status-no-gateway-token/amount',
      'amount/JPY-1000/status',
      'amount/KWD-12.345/status',
      'amount/USD-19.99/status',
    ]);
    expect(reasonOf(report, 'amount/JPY-1000/status')).toBe('answered amount 100000 for 1000 JPY sent (minor units both ways, spec 8)');
    expect(outcomeOf(report, 'amount/KWD-12.345/pay')).toBe('pass');
  });

  it('skips an amount whose currency the adapter refuses, instead of failing it', async () => {
    const report = await check({ currencies: ['USD', 'JPY'] }, { cardCallback: undefined, ...WITHOUT_PROVIDER });
    expect(outcomeOf(report, 'amount/KWD-12.345/pay')).toBe('skip');
    expect(reasonOf(report, 'amount/KWD-12.345/pay')).toContain('currency not offered');
    expect(outcomeOf(report, 'amount/KWD-12.345/status')).toBeUndefined();
    expect(report.passed).toBe(true);
  });

  it.each([
    ['result-false', 'without code 408: Payrail declines that'],
    ['approved', 'yet the adapter answered result true, status "approved"'],
  ] as const)('fails an adapter answering a provider 503 with %s', async (providerFailure, reason) => {
    const report = await check({ providerFailure }, { cardCallback: undefined });
    expect(outcomeOf(report, 'provider-5xx/answer')).toBe('fail');
    expect(reasonOf(report, 'provider-5xx/answer')).toContain(reason);
  });

  it('fails an adapter that waits for a silent provider past response_timeout', async () => {
    const report = await check({ ignoreResponseTimeout: true }, { cardCallback: undefined, timeoutMs: 3000 });
    expect(outcomeOf(report, 'provider-timeout/answer')).toBe('fail');
    expect(reasonOf(report, 'provider-timeout/answer')).toMatch(/^the provider never answered, and neither did the adapter/);
  });

  it('fails a repeated /pay that makes a second transaction', async () => {
    const report = await check({ newTransactionOnRepeat: true }, { cardCallback: undefined, ...WITHOUT_PROVIDER });
    expect(failedNames(report)).toEqual(['pay-repeat/same-payment']);
    expect(reasonOf(report, 'pay-repeat/same-payment')).toContain('made another transaction');
  });

  it('fails a redirect_request whose url is not http(s)', async () => {
    const report = await check({ redirectUrl: 'javascript:alert(1)' }, { cardCallback: undefined, ...WITHOUT_PROVIDER });
    expect(outcomeOf(report, 'pay/reply-shape')).toBe('fail');
    expect(reasonOf(report, 'pay/reply-shape')).toContain('is not an http(s) URL');
  });

  it("fails an adapter that crashes on Payrail's own shapes: no card data, variant C's bank_account, /status without gateway_token", async () => {
    const report = await check({ crashWithoutCard: true, crashWithoutGatewayToken: true }, { cardCallback: undefined, ...WITHOUT_PROVIDER });
    expect(failedNames(report)).toEqual(expect.arrayContaining(['pay-without-card/http-200', 'pay-bank-account/http-200', 'status-no-gateway-token/http-200']));
    expect(outcomeOf(report, 'status/http-200')).toBe('pass'); // with gateway_token it works
  });

  it('fails a callback sent elsewhere than the callback_url given', async () => {
    const report = await check({ callbackTo: 'legacy' }, { ...WITHOUT_PROVIDER, callbackWaitMs: 500 });
    expect(outcomeOf(report, 'callback/pending-card')).toBe('fail');
    expect(reasonOf(report, 'callback/pending-card')).toMatch(/one came to \/callback\/conf_pay_/);
  });

  it('without providerUrlSetting, skips what only the provider side shows (never passes it)', async () => {
    const report = await check({ processUnsigned: true }, { providerUrlSetting: undefined, cardCallback: undefined });
    for (const name of ['provider-5xx/answer', 'provider-timeout/answer', 'signature/wrong/not-processed', 'signature/missing/not-processed']) {
      expect({ name, outcome: outcomeOf(report, name) }).toEqual({ name, outcome: 'skip' });
    }
    expect(reasonOf(report, 'signature/wrong/not-processed')).toContain('give providerUrlSetting');
  });
});
