import type { FastifySchema } from 'fastify';
import { coreErrorEnvelopeSchema, errorEnvelopeSchema } from './error-envelope-schema.ts';
import { objectAt, objectsIn } from './json-path.ts';
import { isJsonObject } from './type-guards.ts';

// The error answers every route of an API can give, whatever it does: added to the document only (a @fastify/swagger
// transform), so the routes' runtime validators and serializers stay exactly as each route declares them.

// What apiKindOf reads of a route's schema (or of an operation of the document).
interface DocumentedSchema {
  tags?: readonly string[];
  security?: readonly object[];
}

type Envelope = (texts: { meaning: string; codes: string }) => unknown;

interface CommonError {
  status: number;
  applies: (schema: FastifySchema, api: ApiKind) => boolean;
  meaning: string;
  codes: string;
}

type ApiKind = 'merchant' | 'admin' | 'core' | 'public';

const hasInput = (schema: FastifySchema) => schema.body !== undefined || schema.querystring !== undefined || schema.params !== undefined;

const COMMON_ERRORS: readonly CommonError[] = [
  {
    status: 400,
    applies: hasInput,
    meaning: 'The request is malformed: its body is not JSON, is empty or is not as long as `Content-Length` says, or its URL does not decode.',
    codes: 'invalid_json, invalid_content_length, invalid_url, bad_request',
  },
  {
    status: 401,
    applies: (schema) => (schema.security?.length ?? 0) > 0,
    meaning: 'The credential is missing, unknown, revoked or expired.',
    codes: 'unauthorized and the like: see the security scheme',
  },
  {
    status: 413,
    applies: (schema) => schema.body !== undefined,
    meaning: 'The request body is larger than the route accepts (1 MiB for JSON).',
    codes: 'payload_too_large',
  },
  {
    status: 415,
    applies: (schema) => schema.body !== undefined,
    meaning: 'The request body is not of a media type the route accepts (`Content-Type: application/json` unless said otherwise).',
    codes: 'unsupported_media_type',
  },
  {
    status: 422,
    applies: hasInput,
    meaning: 'A field of the body, query string or path is missing, unknown or invalid; `field` names it.',
    codes: 'invalid_field, unknown_field',
  },
  {
    status: 429,
    applies: (_schema, api) => api !== 'public',
    meaning: 'Too many requests from this IP address (or with this merchant key) in the window; `Retry-After` says when to retry.',
    codes: 'rate_limited',
  },
];

// Which API a route belongs to, from what it declares: core banking routes carry a `core banking: …` tag, the
// merchant and admin APIs their key's security scheme. Those three are rate limited (app.ts, core-banking/routes.ts).
export function apiKindOf(schema: DocumentedSchema): ApiKind {
  if (schema.tags?.some((tag) => tag.startsWith('core banking')) === true) return 'core';
  const schemes = new Set((schema.security ?? []).flatMap((requirement) => Object.keys(requirement)));
  if (schemes.has('adminKey')) return 'admin';
  if (schemes.has('merchantKey')) return 'merchant';
  return 'public';
}

function withCommonErrors(schema: FastifySchema): FastifySchema {
  if (!isJsonObject(schema) || schema['hide'] === true) return schema;
  const tags = schema['tags'];
  const api = apiKindOf({
    tags: Array.isArray(tags) ? tags.filter((tag) => typeof tag === 'string') : undefined,
    security: objectsIn(schema['security']),
  });
  const envelope: Envelope = api === 'core' ? coreErrorEnvelopeSchema : errorEnvelopeSchema;
  const response: Record<string, unknown> = { ...objectAt(schema, 'response') };
  for (const error of COMMON_ERRORS) {
    if (!error.applies(schema, api) || response[String(error.status)] !== undefined) continue;
    // Spelled out as JSON: a route that answers files (`produces`) still fails in JSON.
    const envelopeSchema = envelope({ meaning: error.meaning, codes: error.codes });
    response[String(error.status)] = { description: error.meaning, content: { 'application/json': { schema: envelopeSchema } } };
  }
  return { ...schema, response };
}

// The transform option of @fastify/swagger.
// @fastify/swagger types the schema as always there; a route without one passes undefined, returned as it came.
export function commonErrorsTransform({ schema, url }: { schema: FastifySchema; url: string }): { schema: FastifySchema; url: string } {
  return { schema: withCommonErrors(schema), url };
}
