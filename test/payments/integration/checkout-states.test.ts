import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedLocale, requestLocale } from '../../../src/payments/routes/checkout/request-locale.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { addProductionGateway } from '../../support/production-gateway.ts';

const engines = await testEngines();

const CARD_FORM = new URLSearchParams({ pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }).toString();
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const UNKNOWN_TOKEN = 'f'.repeat(32);

const h1Count = (body: string) => body.match(/<h1[\s>]/g)?.length ?? 0;
const titleOf = (body: string) => /<title>([^<]*)<\/title>/.exec(body)?.[1] ?? '';
const langOf = (body: string) => /<html lang="([^"]+)"/.exec(body)?.[1];

// Issue 11: every form post answers 303 (post/redirect/get), every state is a page in the customer's language,
// and the merchant is named by its display name.
describe.each(engines)('hosted checkout states on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;
  let merchant: TestMerchant;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
    merchant = await harness.createMerchant('Acme Trading Ltd');
    await addProductionGateway(harness, merchant.id, adapter);
    const named = await admin('PATCH', `/merchants/${merchant.id}`, { display_name: 'Acme Café' });
    expect(named.statusCode, named.body).toBe(200);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  function admin(method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) {
    return harness.app.inject({
      method,
      url: `/api/admin/v1${url}`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      ...(payload ? { payload } : {}),
    });
  }

  async function createPayment(extra: Record<string, unknown> = {}): Promise<string> {
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: { product: 'Order #11', amount: 1100, currency: 'EUR', callbackUrl: 'https://merchant.example/callback', ...extra },
    });
    expect(created.statusCode, created.body).toBe(200);
    return created.json().token as string;
  }

  const get = (url: string, headers: Record<string, string> = {}) =>
    harness.app.inject({ method: 'GET', url, headers: { accept: BROWSER_ACCEPT, ...headers } });
  const postCard = (token: string, payload = CARD_FORM) =>
    harness.app.inject({ method: 'POST', url: `/checkout/${token}?locale=en`, headers: FORM_HEADERS, payload });

  describe('post/redirect/get', () => {
    it('answers the card form 303 to the payment page, which sends an approved payment on to the merchant', async () => {
      const token = await createPayment({ redirectSuccessUrl: 'https://shop.example/thanks', redirectFailUrl: 'https://shop.example/sorry' });
      adapter.respond('pay', () => reply.json(adapterAnswer.approved(`gw_${token}`)));
      const form = await get(`/checkout/${token}?locale=en`);
      // The post's redirect chain ends at the merchant: the form-action lets Chromium follow it.
      expect(form.headers['content-security-policy']).toContain("form-action 'self' https://shop.example");
      const posted = await postCard(token);
      expect(posted.statusCode).toBe(303);
      expect(posted.headers.location).toBe(`/checkout/${token}?locale=en`);
      const shown = await get(posted.headers.location as string);
      expect(shown.statusCode).toBe(303);
      const destination = new URL(shown.headers.location as string);
      expect(destination.origin + destination.pathname).toBe('https://shop.example/thanks');
      expect(destination.searchParams.get('status')).toBe('approved');
      // The form posted again (Reload or Back with resubmission) is not a second charge: 303 to the page.
      const again = await postCard(token);
      expect(again.statusCode).toBe(303);
      expect(again.headers.location).toBe(`/checkout/${token}?locale=en`);
      expect(adapter.requestsFor('pay', token)).toHaveLength(1);
    });

    it('renders the result from the GET when the merchant gave no redirect URL', async () => {
      const token = await createPayment();
      adapter.respond('pay', () => reply.json(adapterAnswer.declined(`gw_${token}`, { decline_reason: 'Do not honor' })));
      const posted = await postCard(token);
      expect(posted.statusCode).toBe(303);
      const shown = await get(posted.headers.location as string);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain('data-status="declined"');
      expect(h1Count(shown.body)).toBe(1);
    });

    it('keeps a refused form as the answer to its post (422), and charges nothing', async () => {
      const token = await createPayment();
      const posted = await postCard(token, new URLSearchParams({ pan: '12', expires: '99/1999', holder: 'A', cvv: 'x' }).toString());
      expect(posted.statusCode).toBe(422);
      expect(posted.body).toContain('id="card-form"');
      expect(posted.body).toContain('aria-invalid="true"');
      expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    });

    it('shows the 3-D Secure redirect page from the GET, and only waits once the issuer posted back', async () => {
      const token = await createPayment();
      const redirect = { type: 'post', url: 'https://acs.example/3ds', params: { PaReq: 'abc', MD: 'md-1' } };
      adapter.respond('pay', () => reply.json(adapterAnswer.pending(`gw_${token}`, { redirect_request: redirect })));
      const posted = await postCard(token);
      expect(posted.statusCode).toBe(303);
      const shown = await get(posted.headers.location as string);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toContain('action="https://acs.example/3ds"');
      expect(shown.headers['content-security-policy']).toContain("form-action 'self' https://acs.example");
      // Reload: still the redirect page, nothing sent again.
      expect((await get(posted.headers.location as string)).body).toContain('action="https://acs.example/3ds"');
      const returned = await harness.app.inject({
        method: 'POST',
        url: `/checkout/${token}/return`,
        headers: { ...FORM_HEADERS, 'accept-language': 'en' },
        payload: 'PaRes=xyz&MD=md-1',
      });
      expect(returned.statusCode).toBe(303);
      expect(returned.headers.location).toBe(`/checkout/${token}/return?locale=en`);
      const landing = await get(returned.headers.location as string);
      expect(landing.statusCode).toBe(200);
      expect(landing.body).toContain('id="waiting"');
      expect(landing.body).not.toContain('acs.example');
      expect(adapter.requestsFor('pay', token)).toHaveLength(1);
    });

    it("brings the customer back from the bank in the payment's language, whatever the browser says", async () => {
      const token = await createPayment({ locale: 'jp' });
      const returned = await harness.app.inject({
        method: 'POST',
        url: `/checkout/${token}/return`,
        headers: { ...FORM_HEADERS, 'accept-language': 'en-US,en;q=0.9' },
        payload: 'PaRes=xyz&MD=md-1',
      });
      expect(returned.statusCode).toBe(303);
      expect(returned.headers.location).toBe(`/checkout/${token}/return?locale=jp`);
      expect(langOf((await get(`/checkout/${token}/return`, { 'accept-language': 'en' })).body)).toBe('ja');
    });

    it('goes from the landing page straight to the merchant once the payment is final, without a first poll', async () => {
      const token = await createPayment({ redirectSuccessUrl: 'https://shop.example/thanks' });
      adapter.respond('pay', () => reply.json(adapterAnswer.approved(`gw_${token}`)));
      await postCard(token);
      const landing = await get(`/checkout/${token}/return?locale=en`);
      expect(landing.statusCode).toBe(200);
      expect(landing.body).toMatch(/data-go-to="https:\/\/shop\.example\/thanks\?token=[0-9a-f]{32}&amp;status=approved"/);
    });
  });

  describe('unknown and malformed links', () => {
    it.each([
      ['an unknown token', `/checkout/${UNKNOWN_TOKEN}`],
      ['a malformed token', '/checkout/not-a-token'],
      ['an unknown token on the landing page', `/checkout/${UNKNOWN_TOKEN}/return`],
    ])('answers %s with a 404 page in the browser language', async (_label, url) => {
      const page = await get(url, { 'accept-language': 'zh-CN,zh;q=0.9,en;q=0.8' });
      expect(page.statusCode).toBe(404);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.headers['content-security-policy']).toContain("default-src 'none'");
      expect(langOf(page.body)).toBe('zh-CN');
      expect(page.body).toContain('id="not-found"');
      expect(h1Count(page.body)).toBe(1);
      expect(page.body).not.toMatch(/at .*\.ts:\d+/); // no stack trace
    });

    it('answers ?locale= before Accept-Language, and Japanese for ja', async () => {
      expect(langOf((await get(`/checkout/${UNKNOWN_TOKEN}?locale=jp`, { 'accept-language': 'zh' })).body)).toBe('ja');
      expect(langOf((await get(`/checkout/${UNKNOWN_TOKEN}`, { 'accept-language': 'ja-JP' })).body)).toBe('ja');
      expect(langOf((await get(`/checkout/${UNKNOWN_TOKEN}`, { 'accept-language': 'fr-FR,de;q=0.9' })).body)).toBe('en');
    });

    it('keeps the JSON envelope for a client asking for JSON', async () => {
      const unknown = await get(`/checkout/${UNKNOWN_TOKEN}`, { accept: 'application/json' });
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false });
      const malformed = await get('/checkout/not-a-token', { accept: 'application/json' });
      expect(malformed.statusCode).toBeGreaterThanOrEqual(400);
      expect(malformed.statusCode).toBeLessThan(500);
      expect(malformed.json()).toMatchObject({ success: false });
    });
  });

  describe('the customer language', () => {
    it('picks the page language from Accept-Language when the link has no locale, by q-value', async () => {
      const token = await createPayment({ locale: 'en' });
      const zh = await get(`/checkout/${token}`, { 'accept-language': 'fr;q=1, zh-TW;q=0.8, en;q=0.5' });
      expect(langOf(zh.body)).toBe('zh-CN');
      const jp = await get(`/checkout/${token}`, { 'accept-language': 'en;q=0.2, ja;q=0.9' });
      expect(langOf(jp.body)).toBe('ja');
      const fromLink = await get(`/checkout/${token}?locale=jp`, { 'accept-language': 'zh' });
      expect(langOf(fromLink.body)).toBe('ja');
    });

    it('falls back to the payment locale when Accept-Language names nothing it speaks', () => {
      expect(requestLocale(undefined, 'fr-CA, de;q=0.5', 'zh')).toBe('zh');
      expect(requestLocale(undefined, undefined, 'jp')).toBe('jp');
      expect(requestLocale('', 'ja', 'en')).toBe('jp');
      expect(acceptedLocale('zh;q=0, en;q=0.1')).toBe('en');
      expect(acceptedLocale('*')).toBeNull();
      expect(acceptedLocale('en-GB;q=0.5, zh-Hant;q=0.5')).toBe('en');
    });
  });

  describe('states of a link opened again', () => {
    it('says a paid payment is already paid on a repeat visit, not on the first view of the result', async () => {
      const token = await createPayment();
      adapter.respond('pay', () => reply.json(adapterAnswer.approved(`gw_${token}`)));
      await postCard(token);
      const first = await get(`/checkout/${token}?locale=en`);
      expect(first.body).toContain('data-status="approved"');
      expect(first.body).not.toContain('id="result-note"');
      const seen = String(first.headers['set-cookie']).split(';')[0] ?? '';
      expect(String(first.headers['set-cookie'])).toContain(`Path=/checkout/${token}`);
      for (const [locale, lang] of [
        ['en', 'en'],
        ['zh', 'zh-CN'],
        ['jp', 'ja'],
      ] as const) {
        const page = await get(`/checkout/${token}?locale=${locale}`, { cookie: seen });
        expect(page.statusCode).toBe(200);
        expect(langOf(page.body)).toBe(lang);
        expect(page.body).toContain('data-status="approved"');
        expect(page.body).toContain('id="result-note"');
        expect(page.body).not.toContain('id="card-form"');
      }
    });

    it('says a cancelled payment can no longer be paid, and takes no card for it', async () => {
      const token = await createPayment();
      const cancelled = await harness.merchantRequest(merchant.productionKey, { method: 'POST', url: `/api/v1/payments/${token}/cancel` });
      expect(cancelled.statusCode, cancelled.body).toBe(200);
      const page = await get(`/checkout/${token}?locale=en`);
      expect(page.body).toContain('data-status="cancelled"');
      expect(page.body).not.toContain('id="result-note"');
      const again = await get(`/checkout/${token}?locale=en`, { cookie: String(page.headers['set-cookie']).split(';')[0] ?? '' });
      expect(again.body).toContain('id="result-note"');
      const posted = await postCard(token);
      expect(posted.statusCode).toBe(303);
      expect(adapter.requestsFor('pay', token)).toHaveLength(0);
    });
  });

  describe('the merchant display name', () => {
    it('names the merchant in the title and header of the card page, with exactly one <h1>', async () => {
      const token = await createPayment();
      for (const locale of ['en', 'zh', 'jp']) {
        const page = await get(`/checkout/${token}?locale=${locale}`);
        expect(titleOf(page.body)).toContain('Acme Café');
        expect(page.body).toContain('<p id="merchant-name" class="merchant-name">Acme Café</p>');
        expect(h1Count(page.body)).toBe(1);
        expect(/<h1[^>]*>([^<]*)<\/h1>/.exec(page.body)?.[1]).toContain('Acme Café');
      }
    });

    it('names it on the waiting and result pages too', async () => {
      const token = await createPayment();
      adapter.respond('pay', () => reply.json(adapterAnswer.pending(`gw_${token}`)));
      await postCard(token);
      const waiting = await get(`/checkout/${token}?locale=en`);
      expect(waiting.body).toContain('id="waiting"');
      expect(waiting.body).toContain('data-slow-message=');
      expect(titleOf(waiting.body)).toContain('Acme Café');
      expect(h1Count(waiting.body)).toBe(1);
    });

    it('is shown by the admin API, escaped on the page, and null goes back to the name', async () => {
      const created = await admin('POST', '/merchants', { name: 'Plain <b>Shop</b>', display_name: 'Shop & <Co>' });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json().merchant.display_name).toBe('Shop & <Co>');
      const { id } = created.json().merchant;
      const fetched = await admin('GET', `/merchants/${id}`);
      expect(fetched.json().merchant).toMatchObject({ name: 'Plain <b>Shop</b>', display_name: 'Shop & <Co>' });
      const listed = await admin('GET', '/merchants?perPage=500');
      expect(listed.json().merchants.find((row: { id: number }) => row.id === id).display_name).toBe('Shop & <Co>');
      const cleared = await admin('PATCH', `/merchants/${id}`, { display_name: null });
      expect(cleared.statusCode).toBe(200);
      expect(cleared.json().merchant).toMatchObject({ name: 'Plain <b>Shop</b>', display_name: null });
    });

    it.each([
      ['an empty display name', { display_name: '' }],
      ['101 characters', { display_name: 'x'.repeat(101) }],
      ['a control character', { display_name: 'Acme\nShop' }],
      ['a C1 control character', { display_name: 'Acme\u0085Shop' }],
      ['only spaces', { display_name: '   ' }],
      ['an object', { display_name: { text: 'Acme' } }],
    ])('refuses %s with 422 naming display_name', async (_label, payload) => {
      for (const [method, url] of [
        ['POST', '/merchants'],
        ['PATCH', `/merchants/${merchant.id}`],
      ] as const) {
        const response = await admin(method, url, method === 'POST' ? { name: 'Named', ...payload } : payload);
        expect(response.statusCode, response.body).toBe(422);
        expect(response.body).toContain('display_name');
      }
    });

    it('takes 100 characters, and answers 404 for an unknown merchant', async () => {
      const long = 'ü'.repeat(100);
      const created = await admin('POST', '/merchants', { name: 'Long', display_name: long });
      expect(created.statusCode, created.body).toBe(200);
      expect((await admin('PATCH', '/merchants/999999', { display_name: 'Nobody' })).statusCode).toBe(404);
      expect((await admin('PATCH', `/merchants/${merchant.id}`, {})).statusCode).toBe(422);
    });

    it('falls back to the merchant name on the page', async () => {
      const other = await harness.createMerchant('Fallback Books');
      const created = await harness.merchantRequest(other.sandboxKey, {
        method: 'POST',
        url: '/api/v1/payments',
        payload: { product: 'A book', amount: 500, currency: 'EUR', callbackUrl: 'https://merchant.example/callback' },
      });
      const page = await get(`/checkout/${created.json().token as string}?locale=en`);
      expect(titleOf(page.body)).toContain('Fallback Books');
      expect(page.body).toContain('Pay Fallback Books');
    });
  });
});
