import type { FastifyInstance } from 'fastify';
import { ApiError } from './errors.ts';

// Deeper bodies are refused before parsing: nothing a client may send needs more, and every recursive walk
// over a body (validation, digests, redaction) stays far from the stack limit.
export const JSON_NESTING_DEPTH_MAX = 64;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

// The deepest nesting of objects and arrays in JSON text, scanning no further than one level past depthMax.
// Malformed text is left for JSON.parse to reject.
export function jsonNestingDepth(text: string, depthMax = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > depthMax) return deepest;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return deepest;
}

// The one application/json parser of the app: Fastify's own (prototype poisoning refused), behind a nesting limit.
export function registerJsonBodyParser(app: FastifyInstance): void {
  const { onProtoPoisoning = 'error', onConstructorPoisoning = 'error' } = app.initialConfig;
  const defaultParser = app.getDefaultJsonParser(onProtoPoisoning, onConstructorPoisoning);
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, text: string, done) => {
    if (jsonNestingDepth(text, JSON_NESTING_DEPTH_MAX) > JSON_NESTING_DEPTH_MAX) {
      done(new ApiError('invalid_json', 400, `request body nests objects and arrays deeper than ${JSON_NESTING_DEPTH_MAX} levels`), undefined);
      return;
    }
    // Text decoded from UTF-8 holds no lone surrogate; only a \u escape can make one, and PostgreSQL refuses it
    // in jsonb and text (a 500 where the client sent the wrong thing).
    if (!text.includes('\\u')) {
      defaultParser(request, text, done);
      return;
    }
    defaultParser(request, text, (error, parsed) => {
      if (error === null && !wellFormed(parsed)) {
        done(new ApiError('invalid_json', 400, 'request body has a string with a lone UTF-16 surrogate (\\ud800–\\udfff): not Unicode text'), undefined);
        return;
      }
      done(error, parsed);
    });
  });
}

// Every string and property name in a parsed body is well-formed Unicode (bounded: the nesting limit holds).
function wellFormed(value: unknown): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (Array.isArray(value)) return value.every(wellFormed);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, item]) => key.isWellFormed() && wellFormed(item));
  }
  return true;
}
