import { describe, expect, it } from 'vitest';
import { assertPublicUrl, isPublicAddress, resolvePublicAddresses, SsrfRefusedError } from '../../../src/platform/lib/ssrf-guard.ts';

describe('isPublicAddress', () => {
  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '93.184.216.34',
    '172.15.255.255',
    '172.32.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '169.253.255.255',
    '192.167.255.255',
    '11.0.0.1',
    '223.255.255.255',
    '198.17.255.255',
    '198.20.0.0',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2a00:1450:4001:82b::200e',
    '::ffff:8.8.8.8',
    '::ffff:808:808',
    '64:ff9b::808:808',
    '2002:0808:0808::1',
    '2001:db9::1',
  ])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each<[string, string]>([
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback /8'],
    ['::1', 'IPv6 loopback'],
    ['0:0:0:0:0:0:0:1', 'IPv6 loopback, long form'],
    ['::', 'IPv6 unspecified'],
    ['0.0.0.0', 'this network'],
    ['0.1.2.3', 'this network /8'],
    ['10.0.0.1', 'private 10/8'],
    ['10.255.255.255', 'private 10/8, last'],
    ['172.16.0.1', 'private 172.16/12'],
    ['172.31.255.255', 'private 172.16/12, last'],
    ['192.168.1.1', 'private 192.168/16'],
    ['100.64.0.1', 'CGNAT'],
    ['100.127.255.255', 'CGNAT, last'],
    ['100.100.100.200', 'Alibaba metadata (CGNAT)'],
    ['169.254.0.1', 'link-local'],
    ['169.254.169.254', 'cloud metadata'],
    ['fd00:ec2::254', 'AWS IPv6 metadata'],
    ['fc00::1', 'unique local fc00::/7'],
    ['fdff:ffff::1', 'unique local fd'],
    ['fe80::1', 'IPv6 link-local'],
    ['fe80::1%eth0', 'IPv6 link-local with a zone'],
    ['febf::1', 'IPv6 link-local, last'],
    ['fec0::1', 'deprecated site-local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast SSDP'],
    ['ff02::1', 'IPv6 multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'documentation TEST-NET-1'],
    ['198.51.100.1', 'documentation TEST-NET-2'],
    ['203.0.113.1', 'documentation TEST-NET-3'],
    ['2001:db8::1', 'IPv6 documentation'],
    ['192.0.0.170', 'IETF protocol assignments'],
    ['198.18.0.1', 'benchmarking'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback in hex'],
    ['::FFFF:169.254.169.254', 'IPv4-mapped metadata, upper case'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['0:0:0:0:0:ffff:c0a8:0101', 'IPv4-mapped private, long form'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['64:ff9b:1::1', 'local-use NAT64'],
    ['2002:7f00:1::1', '6to4 of loopback'],
    ['2001:0:4136:e378::1', 'Teredo'],
    ['100::1', 'discard-only'],
  ])('%s is not public (%s)', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each([
    ['', 'empty'],
    ['localhost', 'a name'],
    ['127.1', 'short IPv4'],
    ['2130706433', 'an integer'],
    ['0x7f.0.0.1', 'hex octet'],
    ['010.0.0.1', 'leading zero'],
    ['256.0.0.1', 'octet over 255'],
    ['1.2.3.4.5', 'five octets'],
    ['[::1]', 'bracketed'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['1::2::3', 'two ::'],
    ['12345::1', 'a five-digit group'],
  ])('%s is not an address, so not public (%s)', (text) => {
    expect(isPublicAddress(text)).toBe(false);
  });
});

function resolverOf(answers: Record<string, string[]>): (host: string) => Promise<string[]> {
  return async (host) => answers[host] ?? [];
}

const resolver = resolverOf({
  'pay.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'mixed.example': ['93.184.216.34', '10.0.0.5'],
  'internal.example': ['192.168.0.10'],
  'metadata.example': ['169.254.169.254'],
  localhost: ['127.0.0.1', '::1'],
});

describe('resolvePublicAddresses and assertPublicUrl', () => {
  it.each<[string, string[]]>([
    ['https://pay.example/callback?x=1', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
    ['http://pay.example:8080/', ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946']],
    ['https://8.8.8.8/hook', ['8.8.8.8']],
    ['https://[2606:4700:4700::1111]/hook', ['2606:4700:4700::1111']],
  ])('allows %s and returns the checked addresses', async (url, addresses) => {
    await expect(resolvePublicAddresses(url, resolver)).resolves.toEqual(addresses);
    await expect(assertPublicUrl(url, resolver)).resolves.toBeUndefined();
  });

  it.each<[string, RegExp]>([
    ['ftp://pay.example/file', /scheme ftp: is not http or https/],
    ['file:///etc/passwd', /scheme file:/],
    ['gopher://pay.example/', /scheme gopher:/],
    ['javascript:alert(1)', /scheme javascript:/],
    ['not a url', /does not parse/],
    ['https://127.0.0.1/', /not public/],
    ['https://127.1/', /not public/],
    ['https://2130706433/', /not public/],
    ['https://0x7f.0.0.1/', /not public/],
    ['https://[::1]/', /not public/],
    ['https://[::ffff:169.254.169.254]/', /not public/],
    ['http://169.254.169.254/latest/meta-data/', /not public/],
    ['https://[fd00:ec2::254]/', /not public/],
    ['https://localhost/', /resolves to 127.0.0.1/],
    ['https://internal.example/', /resolves to 192.168.0.10/],
    ['https://metadata.example/', /resolves to 169.254.169.254/],
    ['https://mixed.example/', /resolves to 10.0.0.5/],
    ['https://nowhere.example/', /resolves to no address/],
  ])('refuses %s', async (url, reason) => {
    await expect(resolvePublicAddresses(url, resolver)).rejects.toThrow(reason);
    await expect(assertPublicUrl(url, resolver)).rejects.toBeInstanceOf(SsrfRefusedError);
  });

  it('does not ask the resolver about an IP literal', async () => {
    const askedHosts: string[] = [];
    const recordingResolver = async (host: string): Promise<string[]> => {
      askedHosts.push(host);
      return ['8.8.8.8'];
    };
    await resolvePublicAddresses('https://1.1.1.1/', recordingResolver);
    await expect(resolvePublicAddresses('https://10.0.0.1/', recordingResolver)).rejects.toBeInstanceOf(SsrfRefusedError);
    expect(askedHosts).toEqual([]);
  });

  it('names the host, not the full URL, so a secret in the path or query is not repeated', async () => {
    const refusal = await resolvePublicAddresses('https://internal.example/hook?token=s3cret', resolver).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SsrfRefusedError);
    expect((refusal as SsrfRefusedError).host).toBe('internal.example');
    expect((refusal as SsrfRefusedError).message).not.toContain('s3cret');
  });

  it('passes a resolver failure through unchanged (a DNS failure is not a refusal)', async () => {
    const failure = new Error('getaddrinfo ENOTFOUND');
    const failingResolver = async (): Promise<string[]> => {
      throw failure;
    };
    await expect(assertPublicUrl('https://pay.example/', failingResolver)).rejects.toBe(failure);
  });

  it('uses the system resolver by default: localhost is refused', async () => {
    await expect(assertPublicUrl('http://localhost:1/')).rejects.toBeInstanceOf(SsrfRefusedError);
  });
});
