import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoggerOptions } from 'pino';
import { maskCardDataInText } from '@payrail/adapter-kit';
import { redactUrlForLog } from './log-url.ts';
import { redactForLog, redactLogObject } from './redact.ts';

// Every log line goes through the one redaction of lib/redact.ts: secrets by key name at any depth, card
// numbers by value in objects, messages and request URLs.
export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    formatters: { log: redactLogObject },
    serializers: {
      // Fastify's own shapes, with the URL masked: a query string may carry anything.
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactUrlForLog(request.url), // card numbers, card-page tokens and secret query values removed
        version: request.headers?.['accept-version'],
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      res: (reply: FastifyReply) => ({ statusCode: reply.statusCode }),
      err: (error: unknown) => (error instanceof Error ? redactForLog(error) : error),
    },
    hooks: {
      logMethod(args, method) {
        args.forEach((item: unknown, index) => {
          if (typeof item === 'string') args[index] = maskCardDataInText(item);
        });
        method.apply(this, args);
      },
    },
  };
}
