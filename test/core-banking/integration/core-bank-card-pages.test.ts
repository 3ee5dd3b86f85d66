import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { passesLuhn } from '@payrail/adapter-kit';
import { signCardPageToken } from '../../../src/platform/lib/card-page-token.ts';
import { PUBLIC_URL, type Harness, type TestMerchant } from '../../support/harness.ts';
import { testEngines } from '../../support/databases.ts';
import { HARNESS_MASTER_KEY, startCardFixture, type CardFixture } from './core-bank-cards-fixtures.ts';

const engines = await testEngines();
const NAVIGATE = { 'sec-fetch-mode': 'navigate' }; // a browser opening the link (card-page-reveal.test.ts: anything else)

// spec 4: GET /api/internal/v1/bank_cards/{id}/show_card_data | show_set_card_pin, and the hosted pages their links
// open: single use, five minutes, one merchant's cards only, strict headers, no card number in the database.
describe.each(engines)('core banking card page links on %s', (engine) => {
  let fixture: CardFixture;
  let harness: Harness;
  let merchant: TestMerchant;
  let cardBody: CardFixture['cardBody'];
  let issue: CardFixture['issue'];
  let link: CardFixture['link'];
  let issuedCard: CardFixture['issuedCard'];
  let cardRow: CardFixture['cardRow'];
  let pagePath: CardFixture['pagePath'];

  beforeAll(async () => {
    fixture = await startCardFixture(engine);
    ({ harness, merchant, cardBody, issue, link, issuedCard, cardRow, pagePath } = fixture);
  });
  afterAll(async () => fixture?.harness.close());

  it('show_card_data gives a link that shows the full card once, with strict headers; the database never holds the number', async () => {
    const card = await issuedCard();
    const linked = await link(card.id, 'show_card_data');
    expect(linked.statusCode, linked.body).toBe(200);
    const { result } = linked.json();
    const expiresIn = Date.parse(result.expires_at) - Date.now();
    expect(expiresIn).toBeGreaterThan(4 * 60_000);
    expect(expiresIn).toBeLessThanOrEqual(5 * 60_000);
    const path = pagePath(result.url);
    const page = await harness.app.inject({ method: 'GET', url: path, headers: NAVIGATE });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src|unsafe-inline/);
    expect(page.body).not.toContain('<script');
    const pan = page.body.match(/id="pan">([0-9 ]+)</)?.[1]?.replaceAll(' ', '') ?? '';
    expect(pan).toMatch(/^400000[0-9]{10}$/);
    expect(passesLuhn(pan)).toBe(true);
    expect(`${pan.slice(0, 6)}******${pan.slice(-4)}`).toBe(card.card_mask);
    expect(page.body).toMatch(/id="cvv">[0-9]{3}</);
    expect(page.body).toContain('Ada Lovelace');
    const rowText = (await harness.database.db.execute(sql`select t::text as text from bank_cards t where id = ${card.id}`)) as unknown as {
      rows: { text: string }[];
    };
    expect(rowText.rows[0]!.text).not.toContain(pan);
    expect(rowText.rows[0]!.text).toContain(card.card_mask);

    const again = await harness.app.inject({ method: 'GET', url: path, headers: NAVIGATE });
    expect(again.statusCode).toBe(410);
    expect(again.body).toContain('already used');
    expect(again.body).not.toContain(pan);
  });

  it('finds the card by <outer_id>_outer_id, and shows the same number every time', async () => {
    const card = await issuedCard();
    const shown: string[] = [];
    for (const id of [`${card.outer_id}_outer_id`, card.id]) {
      const linked = await link(id, 'show_card_data');
      expect(linked.statusCode, linked.body).toBe(200);
      const page = await harness.app.inject({ method: 'GET', url: pagePath(linked.json().result.url), headers: NAVIGATE });
      shown.push(page.body.match(/id="pan">([0-9 ]+)</)?.[1] ?? 'none');
    }
    expect(shown[0]).toBe(shown[1]);
  });

  it("answers 404 to another merchant's key, an unknown card and a malformed id; 409 for a rejected card", async () => {
    const card = await issuedCard();
    const other = await harness.createMerchant('Another programme');
    for (const [id, key] of [
      [card.id, other.sandboxKey],
      [`${card.outer_id}_outer_id`, other.sandboxKey],
      [card.id, merchant.productionKey],
      [987_654_321, merchant.sandboxKey],
      ['sbx_unknown_outer_id', merchant.sandboxKey],
      ['12abc', merchant.sandboxKey],
    ] as const) {
      const response = await link(id, 'show_card_data', key);
      expect(response.statusCode, `${id}: ${response.body}`).toBe(404);
      expect(response.json().errors[0].code).toBe('card_not_found');
    }
    const rejected = (await issue(cardBody({ holder_last_name: 'Decline' }))).json().result.id;
    expect((await link(rejected, 'show_set_card_pin')).statusCode).toBe(409);
  });

  it('refuses an expired link (410), a forged one (404), and one replaced by a newer link (410)', async () => {
    const card = await issuedCard();
    const first = pagePath((await link(card.id, 'show_card_data')).json().result.url);
    const nonce = JSON.parse(Buffer.from(first.split('.')[1]!, 'base64url').toString()).jti as string;
    const expired = await signCardPageToken(HARNESS_MASTER_KEY, { cardId: card.id, purpose: 'data', nonce }, new Date(Date.now() - 6 * 60_000));
    const expiredPage = await harness.app.inject({ method: 'GET', url: `/cards/${expired.token}` });
    expect(expiredPage.statusCode).toBe(410);
    expect(expiredPage.body).toContain('expired');
    const forged = await signCardPageToken(Buffer.alloc(32, 9), { cardId: card.id, purpose: 'data', nonce });
    expect((await harness.app.inject({ method: 'GET', url: `/cards/${forged.token}` })).statusCode).toBe(404);
    expect((await harness.app.inject({ method: 'GET', url: '/cards/not-a-token' })).statusCode).toBe(404);
    await link(card.id, 'show_set_card_pin');
    const replaced = await harness.app.inject({ method: 'GET', url: first });
    expect(replaced.statusCode).toBe(410);
  });

  it('takes a PIN twice on the PIN page, refuses weak or mismatched ones, records only when it was set', async () => {
    const card = await issuedCard();
    const path = pagePath((await link(`${card.outer_id}_outer_id`, 'show_set_card_pin')).json().result.url);
    const form = await harness.app.inject({ method: 'GET', url: path });
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain(`action="${path}"`);
    const post = (pin: string, confirmation: string, headers: Record<string, string> = {}) =>
      harness.app.inject({
        method: 'POST',
        url: path,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ pin, pin_confirmation: confirmation }).toString(),
      });
    expect((await post('4831', '4831', { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    expect((await post('4831', '4831', { origin: 'https://evil.example' })).statusCode).toBe(403);
    for (const [pin, confirmation, text] of [
      ['4831', '4832', 'differ'],
      ['1234', '1234', 'too easy'],
      ['7777', '7777', 'too easy'],
      ['48a1', '48a1', 'exactly 4 digits'],
    ]) {
      const refused = await post(pin!, confirmation!, { origin: 'null' }); // our no-referrer page posts with Origin: null
      expect(refused.statusCode).toBe(422);
      expect(refused.body).toContain(text);
    }
    expect((await cardRow(card.id)).pinSetAt).toBeNull();
    const set = await post('4831', '4831', { origin: PUBLIC_URL });
    expect(set.statusCode).toBe(200);
    expect(set.body).toContain('PIN set');
    const row = await cardRow(card.id);
    expect(row.pinSetAt).toBeInstanceOf(Date);
    expect(JSON.stringify(row)).not.toContain('4831');
    expect((await post('4831', '4831')).statusCode).toBe(410);
  });

  it('does not let a PIN link show card data, nor a card-data link set a PIN', async () => {
    const card = await issuedCard();
    const dataPath = pagePath((await link(card.id, 'show_card_data')).json().result.url);
    const posted = await harness.app.inject({
      method: 'POST',
      url: dataPath,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'pin=4831&pin_confirmation=4831',
    });
    expect(posted.statusCode).toBe(404);
    const pinPath = pagePath((await link(card.id, 'show_set_card_pin')).json().result.url);
    const shown = await harness.app.inject({ method: 'GET', url: pinPath, headers: NAVIGATE });
    expect(shown.body).not.toMatch(/id="pan"|id="cvv"/);
  });
});
