import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

const HSTS_MAX_AGE_S = 2 * 365 * 24 * 60 * 60;
const STATIC_HEADERS_MAX = 32;

// Browsers' powerful features stay off; the Payment Request API only for our own pages.
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(self), usb=(), display-capture=()';

// What a JSON answer needs from a browser: nothing. HTML pages (checkout, sandbox 3-D Secure, /docs) set
// their own policy with reply.header(), which wins over this one.
const API_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

function helmetOptions(hsts: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP_DIRECTIVES },
    // Only over HTTPS (our own TLS, or a TLS-terminating proxy in front): browsers ignore it on plain HTTP.
    strictTransportSecurity: hsts ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
    // Not no-referrer: a cross-origin form post (3-D Secure) would then carry "Origin: null", which issuers'
    // pages may refuse. Checkout pages narrow this further with <meta name="referrer">.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // A merchant may open the checkout in a popup and watch it; COOP would sever that link.
    crossOriginOpenerPolicy: false,
  };
}

// Helmet's headers depend only on its options, so they are computed once, here, by running its middleware
// against a response that records them. (@fastify/helmet rebuilt the middleware, CSP parsing included, on
// every request: 29 % of a payment create's server CPU, measured with npm run bench.) The response is never sent.
function staticSecurityHeaders(options: { hsts: boolean }): Readonly<Record<string, string>> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  let failure: unknown = null;
  helmet(helmetOptions(options.hsts))(request, response, (error?: unknown) => {
    failure = error ?? null;
  });
  if (failure !== null) throw failure;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  headers['permissions-policy'] = PERMISSIONS_POLICY;
  const count = Object.keys(headers).length;
  if (count === 0 || count > STATIC_HEADERS_MAX) throw new Error(`helmet produced ${count} headers`);
  return Object.freeze(headers);
}

// Registered before every other hook, so refusals (401, 403, 404, 429) carry the headers too.
export function registerSecurityHeaders(app: FastifyInstance, options: { hsts: boolean }): void {
  const headers = staticSecurityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
