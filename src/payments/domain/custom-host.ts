// spec 2.10 custom_host: the host every URL Payrail gives out for a gateway's payments is built on (the customer's
// processing_url, the provider's callback_url, the Host-to-Host create response's processingUrl), instead of
// PAYRAIL_PUBLIC_URL's. Written as host[:port] (the public URL's scheme and path stay) or as an origin
// http(s)://host[:port]. The operator points that name at Payrail (DNS, TLS certificate): every route answers on it.

const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
const PORT_PATTERN = /^[0-9]{1,5}$/;
const PORT_MAX = 65_535;

interface CustomHost {
  protocol: 'http:' | 'https:' | null; // null: the public URL's
  hostname: string;
  port: string; // '' for the scheme's default
}

export type CustomHostReading = { host: CustomHost } | { problem: string };

export function readCustomHost(value: string): CustomHostReading {
  const trimmed = value.trim();
  const originMatch = /^(https?):\/\/(.*)$/i.exec(trimmed);
  const protocol = originMatch ? (`${originMatch[1]!.toLowerCase()}:` as 'http:' | 'https:') : null;
  const authority = (originMatch ? originMatch[2]! : trimmed).replace(/\/$/, '');
  if (/[/?#@\s]/.test(authority)) return { problem: 'must be host[:port] or http(s)://host[:port], without a path, query or user' };
  const [hostname, port = '', ...rest] = authority.split(':');
  if (rest.length > 0 || hostname === undefined || !HOST_PATTERN.test(hostname) || hostname.length > 253) {
    return { problem: 'must name a DNS host (letters, digits, - and dots), optionally with :port' };
  }
  if (authority.includes(':') && (!PORT_PATTERN.test(port) || Number(port) < 1 || Number(port) > PORT_MAX)) {
    return { problem: `has a port that is not 1 to ${PORT_MAX}` };
  }
  return { host: { protocol, hostname: hostname.toLowerCase(), port } };
}

// The public base URL of a gateway's payments: PAYRAIL_PUBLIC_URL with its host (and scheme, when given) replaced.
// A custom_host that does not read (the gateway was saved before it was checked) leaves the public URL as it is.
export function gatewayPublicUrl(publicUrl: string, customHost: string | undefined | null): string {
  if (customHost === undefined || customHost === null || customHost.trim() === '') return publicUrl;
  const reading = readCustomHost(customHost);
  if ('problem' in reading) return publicUrl;
  const url = new URL(publicUrl);
  if (reading.host.protocol !== null) url.protocol = reading.host.protocol;
  url.hostname = reading.host.hostname;
  url.port = reading.host.port;
  return url.href.replace(/\/$/, '');
}
