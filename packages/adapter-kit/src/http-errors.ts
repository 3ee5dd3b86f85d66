import type { FastifyError } from 'fastify';

// The errors the scaffold raises before a handler runs, and the result=false text of each error Fastify raises
// there (body, media type, validation): every one is answered HTTP 200 (spec 7.3).

const INVALID_JSON_ERROR_CODE = 'ADAPTER_INVALID_JSON';
const INVALID_SIGNATURE_ERROR_CODE = 'ADAPTER_INVALID_SIGNATURE';
export const INVALID_SIGNATURE_TEXT = 'invalid X-SIGNATURE';
export const INTERNAL_ERROR_TEXT = 'internal adapter error';
export const ADAPTER_BODY_LIMIT_BYTES_DEFAULT = 256 * 1024;

export class InvalidJsonBodyError extends Error {
  readonly code = INVALID_JSON_ERROR_CODE;
  readonly statusCode = 400;
}

export class InvalidSignatureError extends Error {
  readonly code = INVALID_SIGNATURE_ERROR_CODE;
  readonly statusCode = 401;
}

export function frameworkErrorText(error: FastifyError, bodyLimitBytes: number, internalErrorText: string): string {
  const statusCode = error.statusCode ?? 500;
  if (Array.isArray(error.validation)) return `malformed request: ${error.message}`;
  switch (error.code) {
    case INVALID_JSON_ERROR_CODE:
      return 'request body is not valid JSON';
    case INVALID_SIGNATURE_ERROR_CODE:
      return INVALID_SIGNATURE_TEXT;
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Content-Type must be application/json';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return `request body is larger than ${bodyLimitBytes} bytes`;
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'request body is empty';
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return 'Content-Length does not match the body';
    default:
      return statusCode < 500 ? error.message : internalErrorText;
  }
}
