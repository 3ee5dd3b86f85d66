import { Writable } from 'node:stream';
import fc from 'fast-check';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { passesLuhn } from '@payrail/adapter-kit';
import { loggerOptions } from '../../../src/platform/lib/logger.ts';
import { maskCardData, redactForLog } from '../../../src/platform/lib/redact.ts';
import { leaksCvv, leaksPan } from '../../support/card-leaks.ts';
import { cardEchoLogs } from '../../support/fake-adapter.ts';

const PAN = '4111111111111111';
const CVV = '739';
const CARD = { panDigits: PAN, cvv: CVV };
const SEPARATORS = /[\s.+-]/g;

const luhnCheckDigit = (body: string): string => String([...'0123456789'].findIndex((digit) => passesLuhn(body + digit)));

const luhnPan = fc
  .tuple(fc.integer({ min: 13, max: 19 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 18, maxLength: 18 }))
  .map(([length, digits]) => {
    const body = digits.slice(0, length - 1).join('');
    return body + luhnCheckDigit(body);
  });

// The digits as people and programs write them: bare, or split by spaces, dashes, dots or pluses.
const spelled = (pan: string) =>
  fc
    .tuple(fc.constantFrom('', ' ', '-', '.', '+', ' - '), fc.constantFrom(4, 3, 5, 1))
    .map(([separator, every]) => (separator === '' ? pan : pan.replace(new RegExp(`(\\d{${every}})(?=\\d)`, 'g'), `$1${separator}`)));

// Somewhere in a log entry: a string, a key, an array, deep inside, as a number.
const placed = (text: string, raw: string): unknown[] => [
  { note: text },
  { [text]: 'value' },
  { list: ['a', text, 1] },
  { a: { b: { c: [{ d: text }] } } },
  text,
  { number: Number(raw) },
];

describe('redaction by key and by value', () => {
  it.each([
    ['number', { number: PAN }],
    ['card_no', { card_no: '4111 1111 1111 1111' }],
    ['pan', { pan: PAN }],
    ['cardNumber with dashes', { cardNumber: '4111-1111-1111-1111' }],
    ['security_code', { security_code: CVV }],
    ['a CVV under an innocent key', { code: CVV }],
    ['nested', { request: { body: { payer: { instrument: { value: PAN, check: CVV } } } } }],
    ['arrays', { items: [PAN, [CVV, { x: `4111.1111.1111.1111` }]] }],
    ['a key holding the PAN', { [PAN]: 'approved', [`card 4111 1111 1111 1111`]: true }],
    ['the PAN as a JSON number', { amount: 1999, card: 4111111111111111 }],
    ['free text', { message: `card 4111 1111 1111 1111 cvv ${CVV}` }],
    ['raw JSON text', { raw: JSON.stringify({ cardNumber: PAN, cvc: CVV }) }],
    ['a bare string', `card ${PAN} exp 12/30 cvv ${CVV}`],
    ['what a careless adapter logs', cardEchoLogs(PAN, CVV)],
  ])('masks the payment card held under %s', (_label, value) => {
    const redacted = redactForLog(value, CARD);
    expect(leaksPan(redacted, PAN)).toBe(false);
    expect(leaksCvv(redacted, CVV)).toBe(false);
    if (leaksPan(value, PAN)) expect(JSON.stringify(redacted)).toContain('411111******1111'); // first 6 / last 4 stay
  });

  it('masks a card number it was not told about when it passes the Luhn check', () => {
    const redacted = redactForLog({ number: PAN, text: 'card 4111 1111 1111 1111 ok', key_with_pan: { [PAN]: 1 }, n: 4111111111111111 });
    expect(leaksPan(redacted, PAN)).toBe(false);
    expect((redacted as { number: string }).number).toBe('411111******1111');
  });

  it('leaves numbers alone that are not card numbers', () => {
    const value = { order: '4111111111111112', amount: 1999, ip: '192.168.100.200', date: '2030-12-31T23:59:59.999Z', phone: '+1 415 555 2671' };
    expect(redactForLog(value)).toEqual(value);
  });

  it('redacts secrets by key name at any depth, whatever the spelling', () => {
    const redacted = JSON.stringify(
      redactForLog({
        settings: { sign_key: 's1', 'API-Key': 's2', nested: [{ merchantPrivateKey: 's3', secret: 's4' }] },
        headers: { Authorization: 'Bearer s5' },
      }),
    );
    for (const secret of ['s1', 's2', 's3', 's4', 's5']) expect(redacted).not.toContain(`"${secret}`);
  });

  it('is bounded in depth, breadth and string length', () => {
    let deep: unknown = PAN;
    for (let level = 0; level < 10_000; level += 1) deep = { level: deep };
    expect(JSON.stringify(redactForLog(deep))).toContain('[too deep]');
    expect((redactForLog(Array.from({ length: 10_000 }, () => PAN)) as unknown[]).length).toBe(100);
    expect((redactForLog('x'.repeat(1_000_000)) as string).length).toBeLessThan(70_000);
  });

  it('masks stored details by value and keeps their keys', () => {
    expect(maskCardData({ card: PAN, sign_key: 'kept', reason: `card ${PAN} refused` }, CARD)).toEqual({
      card: '411111******1111',
      sign_key: 'kept',
      reason: 'card 411111******1111 refused',
    });
    expect(maskCardData(null, CARD)).toBeNull();
  });

  it('never lets the payment card survive, wherever it is embedded (property)', () => {
    fc.assert(
      fc.property(
        luhnPan.chain((pan) => fc.tuple(fc.constant(pan), spelled(pan), fc.string(), fc.string(), fc.stringMatching(/^\d{3}$/), fc.nat(5))),
        ([pan, spelling, before, after, cvv, place]) => {
          const value = placed(`${before}${spelling}${after}`, pan)[place];
          return !leaksPan(redactForLog(value, { panDigits: pan, cvv }), pan);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('never lets a Luhn-valid card number survive in text even when the card is not known (property)', () => {
    // Next to the number: anything but a digit (it would make another number) or a hex letter (it could make the
    // whole word a hex identifier, which the Luhn rule skips; see the next test).
    const notDigit = fc.string().filter((text) => !/^[0-9a-f]/i.test(text));
    fc.assert(
      fc.property(
        luhnPan.chain((pan) =>
          fc.tuple(
            fc.constant(pan),
            spelled(pan),
            notDigit.map((text) => [...text].reverse().join('')),
            notDigit,
          ),
        ),
        ([pan, spelling, before, after]) => {
          const value = { entry: `${before}${spelling}${after}`, [`${before}${spelling}`]: [after, `${spelling}`] };
          return !leaksPan(redactForLog(value), pan);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('identifiers next to card-shaped numbers', () => {
  const hexToken = fc.stringMatching(/^[0-9a-f]{32}$/).filter((token) => /[a-f]/.test(token));

  it('leaves payment tokens, hex ids and UUIDs whole, although their digit stretches may pass Luhn (property)', () => {
    fc.assert(
      fc.property(hexToken, fc.uuid(), (token, uuid) => {
        const text = `reference ${token} at /checkout/${token}/return, ch_${token.slice(0, 24)}, request ${uuid}`;
        return (redactForLog({ text }) as { text: string }).text === text;
      }),
      { numRuns: 2000 },
    );
    // The payment that showed it: 38029354949436 passes Luhn.
    const token = 'c7fc43462aa9dd38029354949436e3e0';
    expect(redactForLog({ reference: token, url: `https://pay.example/checkout/${token}/return` })).toEqual({
      reference: token,
      url: `https://pay.example/checkout/${token}/return`,
    });
  });

  it('still masks a card number glued to letters that do not make a hex identifier, and the payment card anywhere', () => {
    expect(redactForLog({ note: 'pan4111111111111111;' })).toEqual({ note: 'pan411111******1111;' });
    expect(redactForLog({ note: 'cafe4111111111111111' })).toEqual({ note: 'cafe411111******1111' });
    expect(redactForLog({ id: `abcdef${PAN}abcdef` }, CARD)).toEqual({ id: 'abcdef411111******1111abcdef' });
  });
});

describe('service logs (pino)', () => {
  const logLines = (write: (logger: pino.Logger) => void): string => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    write(pino(loggerOptions('info'), sink));
    return lines.join('');
  };

  it('masks card numbers by value in objects, messages and errors, and secrets by key', () => {
    const line = logLines((logger) => {
      logger.info({ answer: { number: PAN, note: 'card 4111 1111 1111 1111', deep: [{ card_no: '4111-1111-1111-1111' }] } }, 'charged 4111.1111.1111.1111');
      logger.info('retry for %s', '4111 1111 1111 1111');
      logger.error({ err: new Error(`adapter refused card ${PAN}`) }, 'pay failed');
      logger.warn({ settings: { client_secret: 'topsecret', nested: { sandbox_key: 'sk_sandbox_topsecret' } } }, 'settings');
    });
    expect(line.replace(SEPARATORS, '')).not.toContain(PAN);
    expect(line).toContain('411111******1111');
    expect(line).toContain('adapter refused card 411111******1111');
    expect(line).not.toContain('topsecret');
    expect(line).toContain('"level":50');
  });
});

describe('secrets by name, however a provider spells them', () => {
  // Gateway settings travel in Payrail's own /pay request, which is logged with the payment: their provider keys
  // are free-form (spec 2.10), so a fixed list of names let `acme_webhook_secret` through in clear.
  const settings = {
    api_key: 'ak_live_1',
    sign_key: 'x'.repeat(32),
    gateway_settings: {
      acme_webhook_secret: 'whsec_1',
      'Client-Secret-Value': 'cs_1',
      webhook_Token: 'wt_1',
      access_token: 'at_1',
      db_password: 'pw_1',
      signing_private_key: 'pk_1',
      assets_public_key: 'PUBLIC-KEY-TEXT',
      brand_id: 'brand-7',
    },
  };
  const logged = JSON.stringify(redactForLog({ request: { body: { settings, payment: { token: 'tok_1', gateway_token: 'gw_1' } } } }));

  it.each(['ak_live_1', 'x'.repeat(32), 'whsec_1', 'cs_1', 'wt_1', 'at_1', 'pw_1', 'pk_1'])('removes %s', (secret) => {
    expect(logged).not.toContain(secret);
  });

  it('keeps public keys, identifiers and the rest', () => {
    for (const kept of ['PUBLIC-KEY-TEXT', 'brand-7', 'tok_1', 'gw_1']) expect(logged).toContain(kept);
  });
});
