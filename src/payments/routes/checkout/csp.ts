// Content-Security-Policy of the checkout pages: nothing inline, nothing third-party, and only the
// form targets and frames one page needs.
//
// A srcdoc iframe (redirect_html) is not a fetch, so frame-src does not govern it (HTML "navigate";
// checked in Chromium), but it inherits this policy. Its inline <script> elements therefore run only
// when their hashes are listed (scriptHashes), its forms post only to listed form-action origins, and
// a form that navigates the frame itself also needs that origin in frame-src. Inline event handlers
// would need 'unsafe-hashes'; we do not allow them.

export interface CheckoutCspOptions {
  formActionOrigins?: readonly string[];
  frameOrigins?: readonly string[];
  scriptHashes?: readonly string[]; // 'sha256-…' sources, without the quotes
}

// A source this policy cannot express (a gateway's redirect_request.url may hold one): the caller decides
// what to show instead; it is never a 500.
export class CspSourceError extends Error {
  override name = 'CspSourceError';
}

const ORIGIN_PATTERN = /^https?:\/\/(?:[a-z0-9_-]+(?:\.[a-z0-9_-]+)*|\[[0-9a-f:.]+\])(?::[0-9]{1,5})?$/;
const HASH_SOURCE_PATTERN = /^sha(?:256|384|512)-[A-Za-z0-9+/]+={0,2}$/;

// Accepts exactly scheme://host[:port] (what URL.origin gives for http and https); lower-cases it.
export function validateOrigin(origin: string): string {
  const lowered = origin.toLowerCase();
  if (!ORIGIN_PATTERN.test(lowered)) {
    throw new CspSourceError(`CSP origin must be http(s)://host[:port], got "${origin}"`);
  }
  const port = lowered.match(/:([0-9]+)$/)?.[1];
  if (port !== undefined && Number(port) > 65_535) {
    throw new CspSourceError(`CSP origin port out of range in "${origin}"`);
  }
  return lowered;
}

function uniqueOrigins(origins: readonly string[] | undefined): string[] {
  return [...new Set((origins ?? []).map(validateOrigin))];
}

function uniqueHashSources(hashes: readonly string[] | undefined): string[] {
  return [...new Set(hashes ?? [])].map((hash) => {
    if (!HASH_SOURCE_PATTERN.test(hash)) throw new CspSourceError(`CSP script hash is malformed: "${hash}"`);
    return `'${hash}'`;
  });
}

export function checkoutCsp(options: CheckoutCspOptions = {}): string {
  const frameOrigins = uniqueOrigins(options.frameOrigins);
  const directives = [
    "default-src 'none'",
    ['script-src', "'self'", ...uniqueHashSources(options.scriptHashes)].join(' '),
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    ['form-action', "'self'", ...uniqueOrigins(options.formActionOrigins)].join(' '),
    `frame-src ${frameOrigins.length === 0 ? "'none'" : frameOrigins.join(' ')}`,
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ];
  return directives.join('; ');
}
