// Refuses outgoing requests (merchant callbacks, adapter URLs) that would reach our own network:
// loopback, private, link-local, cloud metadata, CGNAT, multicast, reserved and documentation ranges.
import { lookup } from 'node:dns/promises';
import { isIP, isIPv6 } from 'node:net';

export class SsrfRefusedError extends Error {
  readonly host: string;

  constructor(host: string, reason: string) {
    super(`refused to call ${host === '' ? 'the URL' : host}: ${reason}`);
    this.name = 'SsrfRefusedError';
    this.host = host;
  }
}

type HostResolver = (host: string) => Promise<string[]>;

interface AddressBlock {
  bytes: number[];
  prefixBits: number;
}

const IPV4_NOT_PUBLIC = [
  '0.0.0.0/8', // "this network"
  '10.0.0.0/8',
  '100.64.0.0/10', // carrier-grade NAT (also Alibaba's metadata 100.100.100.200)
  '127.0.0.0/8',
  '169.254.0.0/16', // link-local, including the cloud metadata 169.254.169.254
  '172.16.0.0/12',
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation: never routed, so refusing costs nothing
  '192.168.0.0/16',
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, including the broadcast 255.255.255.255
].map(parseBlock);

const IPV6_NOT_PUBLIC = [
  '::/96', // unspecified ::, loopback ::1 and the deprecated IPv4-compatible form
  '::ffff:0:0:0/96', // IPv4-translated (SIIT)
  '64:ff9b:1::/48', // local-use NAT64
  '100::/64', // discard-only
  '2001::/32', // Teredo: tunnels to an IPv4 address we cannot see
  '2001:db8::/32', // documentation
  'fc00::/7', // unique local, including the AWS metadata fd00:ec2::254
  'fe80::/10', // link-local
  'fec0::/10', // deprecated site-local
  'ff00::/8', // multicast
].map(parseBlock);

// IPv6 forms that carry an IPv4 address, judged by that IPv4 address.
const IPV6_EMBEDDING_IPV4: readonly { block: AddressBlock; ipv4Offset: number }[] = [
  { block: parseBlock('::ffff:0:0/96'), ipv4Offset: 12 }, // IPv4-mapped
  { block: parseBlock('64:ff9b::/96'), ipv4Offset: 12 }, // NAT64
  { block: parseBlock('2002::/16'), ipv4Offset: 2 }, // 6to4
];

export function isPublicAddress(ip: string): boolean {
  const ipv4 = ipv4Bytes(ip);
  if (ipv4 !== null) return !IPV4_NOT_PUBLIC.some((block) => isInBlock(ipv4, block));
  const ipv6 = ipv6Bytes(ip);
  if (ipv6 === null) return false;
  for (const { block, ipv4Offset } of IPV6_EMBEDDING_IPV4) {
    if (isInBlock(ipv6, block)) return isPublicAddress(ipv6.slice(ipv4Offset, ipv4Offset + 4).join('.'));
  }
  return !IPV6_NOT_PUBLIC.some((block) => isInBlock(ipv6, block));
}

export async function assertPublicUrl(url: string, resolve?: HostResolver): Promise<void> {
  await resolvePublicAddresses(url, resolve);
}

// Returns every address the host resolves to, all checked; connect to one of these, not to the name,
// so a second DNS answer (rebinding) cannot swap in a private address.
export async function resolvePublicAddresses(url: string, resolve: HostResolver = resolveWithSystem): Promise<string[]> {
  if (!URL.canParse(url)) throw new SsrfRefusedError('', 'the URL does not parse');
  const { protocol, hostname } = new URL(url);
  const host = hostname.startsWith('[') ? hostname.slice(1, -1) : hostname;
  if (protocol !== 'http:' && protocol !== 'https:') throw new SsrfRefusedError(host, `scheme ${protocol} is not http or https`);
  if (isIP(host) !== 0) {
    if (!isPublicAddress(host)) throw new SsrfRefusedError(host, 'the address is not public');
    return [host];
  }
  const addresses = await resolve(host);
  if (addresses.length === 0) throw new SsrfRefusedError(host, 'the host resolves to no address');
  const refusedAddress = addresses.find((address) => !isPublicAddress(address));
  if (refusedAddress !== undefined) throw new SsrfRefusedError(host, `the host resolves to ${refusedAddress}, which is not public`);
  return addresses;
}

async function resolveWithSystem(host: string): Promise<string[]> {
  const entries = await lookup(host, { all: true });
  return entries.map((entry) => entry.address);
}

function parseBlock(cidr: string): AddressBlock {
  const [address = '', bits = ''] = cidr.split('/');
  const bytes = ipv4Bytes(address) ?? ipv6Bytes(address);
  if (bytes === null) throw new Error(`bad address block ${cidr}`);
  return { bytes, prefixBits: Number(bits) };
}

function isInBlock(bytes: readonly number[], block: AddressBlock): boolean {
  if (bytes.length !== block.bytes.length) return false;
  for (let bitsLeft = block.prefixBits, index = 0; bitsLeft > 0; bitsLeft -= 8, index += 1) {
    const mask = bitsLeft >= 8 ? 0xff : (0xff << (8 - bitsLeft)) & 0xff;
    if (((bytes[index] ?? 0) & mask) !== ((block.bytes[index] ?? 0) & mask)) return false;
  }
  return true;
}

// Dotted-decimal only, without leading zeros (an "010" could mean octal 8 elsewhere).
function ipv4Bytes(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^(0|[1-9]\d{0,2})$/.test(part) || Number(part) > 255) return null;
    bytes.push(Number(part));
  }
  return bytes;
}

function ipv6Bytes(text: string): number[] | null {
  const address = text.replace(/%[^%]*$/, ''); // a zone such as %eth0 does not change the address
  if (!isIPv6(address)) return null;
  const groups = ipv6Groups(withHexTail(address));
  if (groups === null) return null;
  return groups.flatMap((group) => [group >> 8, group & 0xff]);
}

// Rewrites a dotted IPv4 tail ("::ffff:127.0.0.1") as two hex groups ("::ffff:7f00:1").
function withHexTail(address: string): string {
  const lastColon = address.lastIndexOf(':');
  const tail = ipv4Bytes(address.slice(lastColon + 1));
  if (tail === null) return address;
  const [a = 0, b = 0, c = 0, d = 0] = tail;
  return `${address.slice(0, lastColon + 1)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
}

function ipv6Groups(address: string): number[] | null {
  const halves = address.split('::');
  if (halves.length > 2) return null;
  const [left = '', right] = halves;
  const leftGroups = left === '' ? [] : left.split(':');
  const rightGroups = right === undefined || right === '' ? [] : right.split(':');
  const zeroGroupCount = 8 - leftGroups.length - rightGroups.length;
  if (right === undefined ? zeroGroupCount !== 0 : zeroGroupCount < 1) return null;
  const groups = [...leftGroups, ...Array<string>(zeroGroupCount).fill('0'), ...rightGroups];
  if (!groups.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return null;
  return groups.map((group) => parseInt(group, 16));
}
