import fastifyHelmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';

const HSTS_MAX_AGE_S = 2 * 365 * 24 * 60 * 60;

// Browsers' powerful features stay off; the Payment Request API only for our own pages.
const PERMISSIONS_POLICY = 'camera=(), microphone=(), geolocation=(), payment=(self), usb=(), display-capture=()';

// What a JSON answer needs from a browser: nothing. HTML pages (checkout, sandbox 3-D Secure, /docs) set
// their own policy with reply.header(), which wins over this one (Node merges writeHead over setHeader).
const API_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  baseUri: ["'none'"],
  formAction: ["'none'"],
  frameAncestors: ["'none'"],
};

// Registered before every other hook, so refusals (401, 403, 404, 429) carry the headers too.
export async function registerSecurityHeaders(app: FastifyInstance, options: { hsts: boolean }): Promise<void> {
  await app.register(fastifyHelmet, {
    contentSecurityPolicy: { useDefaults: false, directives: API_CSP_DIRECTIVES },
    // Only over HTTPS (our own TLS, or a TLS-terminating proxy in front): browsers ignore it on plain HTTP.
    strictTransportSecurity: options.hsts ? { maxAge: HSTS_MAX_AGE_S, includeSubDomains: true } : false,
    // Not no-referrer: a cross-origin form post (3-D Secure) would then carry "Origin: null", which issuers'
    // pages may refuse. Checkout pages narrow this further with <meta name="referrer">.
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    frameguard: { action: 'deny' },
    // A merchant may open the checkout in a popup and watch it; COOP would sever that link.
    crossOriginOpenerPolicy: false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.header('permissions-policy', PERMISSIONS_POLICY);
    done();
  });
}
