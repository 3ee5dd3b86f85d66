import { describe, expect, it } from 'vitest';
import { AssetError, decodeAssets, PROVIDER_TLS_FILES, providerTlsOf } from '@payrail/adapter-kit';

const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

describe('the adapter kit decodes settings.assets', () => {
  it('decodes every file, with or without padding and line breaks', () => {
    const decoded = decodeAssets({ assets: { 'a.pem': base64('first'), 'b.der': `${base64('second file').slice(0, 8)}\n${base64('second file').slice(8)}` } });
    expect(decoded.get('a.pem')?.toString()).toBe('first');
    expect(decoded.get('b.der')?.toString()).toBe('second file');
    expect(decodeAssets({}).size).toBe(0);
  });

  it('names the file that is not base64', () => {
    expect(() => decodeAssets({ assets: { 'ok.pem': base64('x'), 'bad.pem': 'not base64!' } })).toThrow(/settings\.assets\.bad\.pem is not base64/);
    expect(() => decodeAssets({ assets: { 'long.pem': 'A'.repeat(1_000_001) } })).toThrow(AssetError);
  });

  it('gives the provider TLS identity only whole: a certificate without its key is refused', () => {
    expect(providerTlsOf({ assets: { other: base64('x') } })).toBeNull();
    expect(() => providerTlsOf({ assets: { [PROVIDER_TLS_FILES.cert]: base64('cert') } })).toThrow(new RegExp(PROVIDER_TLS_FILES.key));
    expect(providerTlsOf({ assets: { [PROVIDER_TLS_FILES.ca]: base64('ca') } })).toEqual({ ca: [Buffer.from('ca')] });
  });
});
