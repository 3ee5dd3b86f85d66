import { describe, expect, it } from 'vitest';
import { checkoutCsp, validateOrigin } from '../../../src/payments/routes/checkout/csp.ts';

function directives(csp: string): Map<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const directive of csp.split(';')) {
    const [name = '', ...sources] = directive.trim().split(/\s+/);
    byName.set(name, sources);
  }
  return byName;
}

describe('checkoutCsp', () => {
  it('without options allows only our own scripts, styles, fetches and form posts, and no frames', () => {
    expect(checkoutCsp()).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; " +
        "form-action 'self'; frame-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
  });

  it('never allows inline or evaluated script', () => {
    const csp = checkoutCsp({ formActionOrigins: ['https://acs.example'], frameOrigins: ['https://acs.example'] });
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-hashes');
  });

  it('adds form-action and frame-src origins, lower-cased and deduplicated', () => {
    const csp = directives(
      checkoutCsp({
        formActionOrigins: ['https://ACS.bank.example', 'https://acs.bank.example', 'http://localhost:8443'],
        frameOrigins: ['https://acs.bank.example', 'https://acs.bank.example'],
      }),
    );
    expect(csp.get('form-action')).toEqual(["'self'", 'https://acs.bank.example', 'http://localhost:8443']);
    expect(csp.get('frame-src')).toEqual(['https://acs.bank.example']);
  });

  it('adds script hashes as quoted sources', () => {
    const hash = 'sha256-i5t7gCQ5KoLOPD9gqPuvJS9dX9DVH1a/jcFTpt3x3zA=';
    expect(directives(checkoutCsp({ scriptHashes: [hash, hash] })).get('script-src')).toEqual(["'self'", `'${hash}'`]);
  });

  it.each(["'unsafe-inline'", 'sha256-a b', 'nonce-abc', "sha256-abc'; script-src *"])('refuses the malformed script hash %j', (hash) => {
    expect(() => checkoutCsp({ scriptHashes: [hash] })).toThrow(/hash/);
  });
});

describe('validateOrigin', () => {
  it.each([
    ['https://acs.example', 'https://acs.example'],
    ['HTTP://LOCALHOST:8443', 'http://localhost:8443'],
    ['https://[::1]:8443', 'https://[::1]:8443'],
    ['https://3ds_server.bank.example', 'https://3ds_server.bank.example'],
  ])('accepts %s as %s', (origin, expected) => {
    expect(validateOrigin(origin)).toBe(expected);
  });

  it.each([
    'https://acs.example/',
    'https://acs.example/path',
    'https://acs.example; script-src *',
    "https://acs.example 'unsafe-inline'",
    'javascript:alert(1)',
    'ftp://files.example',
    '*',
    'https://*.example',
    'https://user@acs.example',
    'https://acs.example:99999',
    '',
  ])('refuses %j', (origin) => {
    expect(() => validateOrigin(origin)).toThrow(/origin/);
  });

  it('refuses a bad origin passed to checkoutCsp', () => {
    expect(() => checkoutCsp({ frameOrigins: ["https://a.example 'unsafe-inline'"] })).toThrow(/origin/);
  });
});
