import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutCsp } from '../../../src/payments/routes/checkout/csp.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';

const engines = await testEngines();

const CARD_FORM = new URLSearchParams({ pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString();

// URLs that parse (so the adapter answer is accepted) but whose origin the page's CSP builder refuses:
// a fully qualified name with its trailing dot, a host with a character no CSP source may hold.
const REFUSED_REDIRECTS = [
  { type: 'get', url: 'https://acs.example./challenge' },
  { type: 'post', url: 'https://acs.example./3ds', params: { PaReq: 'abc', MD: 'md-1' } },
  { type: 'post_iframes', url: 'https://a*b.example/3ds', params: { creq: 'xyz' } },
  {
    type: 'redirect_html',
    url: 'https://ignored.example',
    params: { html: '<form method="post" action="https://acs.example./pares"><input name="x"></form>' },
  },
] as const;

describe.each(engines)('a gateway redirect the checkout page cannot show, on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant();
    await addProductionGateway(harness, merchant.id, adapter);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  it.each(REFUSED_REDIRECTS)('shows the waiting page for a $type redirect to $url, after the card went to the adapter', async (redirect) => {
    adapter.respond('pay', (request) => reply.json(adapterAnswer.pending(`gw_${request.body.payment.token}`, { redirect_request: redirect })));
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Order #9', amount: 900, currency: 'EUR', callbackUrl: 'https://merchant.example/callback' },
    });
    const token = created.json().token as string;

    const submitted = await harness.app.inject({
      method: 'POST',
      url: `/checkout/${token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: CARD_FORM,
    });
    // post/redirect/get: the page the payment's state needs is the GET's answer.
    expect(submitted.statusCode).toBe(303);
    expect(submitted.headers.location).toBe(`/checkout/${token}?locale=en`);
    const shown = await harness.app.inject({ method: 'GET', url: submitted.headers.location as string });
    expect(shown.statusCode).toBe(200);
    expect(shown.headers['content-type']).toMatch(/^text\/html/);
    expect(shown.headers['content-security-policy']).toBe(checkoutCsp());
    expect(shown.body).toContain(`data-status-url="/checkout/${token}/status?locale=en"`);
    expect(shown.body).not.toContain('acs.example');
    expect(adapter.requestsFor('pay', token)).toHaveLength(1);
    const status = await harness.app.inject({ method: 'GET', url: `/checkout/${token}/status` });
    expect(status.json()).toMatchObject({ status: 'pending', final: false });
  });
});
