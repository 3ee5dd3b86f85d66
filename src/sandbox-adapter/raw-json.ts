import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';

export const ADAPTER_BODY_LIMIT_BYTES = 256 * 1024;
export const INVALID_JSON_ERROR_CODE = 'SANDBOX_INVALID_JSON';
const SIGNATURE_HEX_LENGTH = 128; // HMAC-SHA512

export class InvalidJsonBodyError extends Error {
  readonly code = INVALID_JSON_ERROR_CODE;
  readonly statusCode = 400;
}

// spec 5.5 signs the exact body bytes, so this plugin parses JSON itself and keeps them.
export function registerRawJsonParser(app: FastifyInstance): (request: FastifyRequest) => Buffer | null {
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: ADAPTER_BODY_LIMIT_BYTES }, (request, body, done) => {
    const bytes = body as Buffer;
    rawBodies.set(request, bytes);
    try {
      done(null, JSON.parse(bytes.toString('utf8')) as unknown);
    } catch {
      done(new InvalidJsonBodyError('request body is not valid JSON'), undefined);
    }
  });
  return (request) => rawBodies.get(request) ?? null;
}

// spec 5.5: X-SIGNATURE = lowercase hex HMAC-SHA512 of the raw body, keyed with the UTF-8 bytes of sign_key.
export function signatureMatches(rawBody: Buffer | null, header: string | string[] | undefined, signKey: string): boolean {
  if (rawBody === null || typeof header !== 'string' || header.length !== SIGNATURE_HEX_LENGTH) return false;
  const expected = Buffer.from(createHmac('sha512', Buffer.from(signKey, 'utf8')).update(rawBody).digest('hex'), 'latin1');
  return timingSafeEqual(expected, Buffer.from(header.toLowerCase(), 'latin1'));
}
