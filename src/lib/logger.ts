import type { LoggerOptions } from 'pino';

// Secrets are redacted by path, wherever a log line carries a request, a body or a settings block.
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'headers.authorization',
  'authorization',
  'key',
  '*.key',
  'sandbox_key',
  'production_key',
  '*.sandbox_key',
  '*.production_key',
  'merchant_private_key',
  '*.merchant_private_key',
  '*.*.merchant_private_key',
  'api_key',
  '*.api_key',
  'sign_key',
  '*.sign_key',
  'pan',
  '*.pan',
  '*.*.pan',
  'cvv',
  '*.cvv',
  '*.*.cvv',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
  };
}
