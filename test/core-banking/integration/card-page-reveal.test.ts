import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Harness } from '../../support/harness.ts';
import { PUBLIC_URL } from '../../support/harness.ts';
import { testEngines } from '../../support/databases.ts';
import { startCardFixture, type CardFixture } from './core-bank-cards-fixtures.ts';

const engines = await testEngines();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const NAVIGATE = { 'sec-fetch-mode': 'navigate', 'sec-fetch-site': 'none' };
const shownPan = (body: string) => body.match(/id="pan">([0-9 ]+)</)?.[1] ?? null;

// The single-use card-data link (show_card_data) is revealed only by the cardholder's own step: a browser navigating
// to it, or the button of the page that asks first. A HEAD, a link preview or a scanner leaves it unused.
describe.each(engines)('card-data link reveal on %s', (engine) => {
  let fixture: CardFixture;
  let harness: Harness;

  beforeAll(async () => {
    fixture = await startCardFixture(engine);
    harness = fixture.harness;
  });
  afterAll(async () => fixture?.harness.close());

  const dataLink = async () => {
    const card = await fixture.issuedCard();
    const linked = await fixture.link(card.id, 'show_card_data');
    expect(linked.statusCode, linked.body).toBe(200);
    return { card, path: fixture.pagePath(linked.json().result.url) };
  };
  const get = (url: string, headers: Record<string, string> = {}) => harness.app.inject({ method: 'GET', url, headers });
  const pressReveal = (url: string, headers: Record<string, string> = { origin: 'null' }) =>
    harness.app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: 'reveal=1' });

  it('answers HEAD and a GET without Sec-Fetch-Mode: navigate with the asking page, using nothing up', async () => {
    const { card, path } = await dataLink();
    const head = await harness.app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(head.body).toBe('');
    const previews: Record<string, string>[] = [
      {},
      { 'user-agent': 'Slackbot-LinkExpanding 1.0' },
      { 'sec-fetch-mode': 'no-cors' },
      { 'sec-fetch-mode': 'cors' },
    ];
    for (const headers of previews) {
      const preview = await get(path, headers);
      expect(preview.statusCode, JSON.stringify(headers)).toBe(200);
      expect(shownPan(preview.body)).toBeNull();
      expect(preview.body).not.toMatch(/id="cvv"/);
      expect(preview.body).toContain(card.card_mask);
      expect(preview.body).toContain(`<form method="post" action="${path}"`);
      expect(preview.body).toContain('name="reveal" value="1"');
    }
    const navigated = await get(path, NAVIGATE);
    expect(navigated.statusCode).toBe(200);
    expect(shownPan(navigated.body)?.replaceAll(' ', '').slice(-4)).toBe(card.card_mask.slice(-4));
    expect(navigated.body).toMatch(/id="cvv">[0-9]{3}</);
  });

  it('reveals the card once on the button press, then neither the button nor a navigation shows it again', async () => {
    const { card, path } = await dataLink();
    expect((await get(path)).statusCode).toBe(200);
    const pressed = await pressReveal(path);
    expect(pressed.statusCode).toBe(200);
    expect(shownPan(pressed.body)?.replaceAll(' ', '').slice(-4)).toBe(card.card_mask.slice(-4));
    const secondPress = await pressReveal(path);
    expect(secondPress.statusCode).toBe(410);
    expect(shownPan(secondPress.body)).toBeNull();
    expect((await get(path, NAVIGATE)).statusCode).toBe(410);
    const head = await harness.app.inject({ method: 'HEAD', url: path });
    expect(head.statusCode).toBe(410);
  });

  it('refuses a reveal posted from another site (403) and leaves the link usable', async () => {
    const { path } = await dataLink();
    const forgeries: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://evil.example' }];
    for (const headers of forgeries) {
      const forged = await pressReveal(path, headers);
      expect(forged.statusCode, JSON.stringify(headers)).toBe(403);
      expect(shownPan(forged.body)).toBeNull();
    }
    const own = await pressReveal(path, { origin: PUBLIC_URL, 'sec-fetch-site': 'same-origin' });
    expect(own.statusCode).toBe(200);
    expect(shownPan(own.body)).not.toBeNull();
  });

  it('never reveals card data through a PIN link, by button or navigation; HEAD leaves the PIN link usable', async () => {
    const card = await fixture.issuedCard();
    const pinPath = fixture.pagePath((await fixture.link(card.id, 'show_set_card_pin')).json().result.url);
    expect((await harness.app.inject({ method: 'HEAD', url: pinPath })).statusCode).toBe(200);
    const pressed = await pressReveal(pinPath);
    expect(pressed.statusCode).toBe(404);
    expect(shownPan(pressed.body)).toBeNull();
    const form = await get(pinPath, NAVIGATE);
    expect(form.statusCode).toBe(200);
    expect(form.body).toContain('id="set-pin"');
    expect(shownPan(form.body)).toBeNull();
  });
});
