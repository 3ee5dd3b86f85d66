import type { ServerOptions } from 'node:http';

// How long the listening server gives a client. Node counts headersTimeout and requestTimeout from the
// request's first byte until its last one arrives; the time we then take to answer is not counted, so
// a Host-to-Host create may wait for its adapter (response_timeout ≤ 120 s) after a short body timeout.

const HEADERS_TIMEOUT_MS_MAX = 10_000;
// The socket's idle limit while we answer: above the longest adapter wait, so only a dead peer trips it.
const CONNECTION_IDLE_TIMEOUT_MS = 180_000;
// Above the idle timeout of the usual load balancers (60 s), so they never reuse a socket we just closed.
const KEEP_ALIVE_TIMEOUT_MS = 72_000;
// Node checks header and request deadlines on this interval (30 s by default, which would double them).
const CONNECTIONS_CHECK_INTERVAL_MS = 500;

export interface ServerTimeouts {
  fastify: { connectionTimeout: number; keepAliveTimeout: number; requestTimeout: number };
  node: Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'keepAliveTimeout' | 'connectionsCheckingInterval'>;
}

export function serverTimeouts(requestTimeoutMs: number): ServerTimeouts {
  return {
    fastify: { connectionTimeout: CONNECTION_IDLE_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS, requestTimeout: requestTimeoutMs },
    node: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS_MAX, requestTimeoutMs),
      requestTimeout: requestTimeoutMs,
      keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS,
      connectionsCheckingInterval: CONNECTIONS_CHECK_INTERVAL_MS,
    },
  };
}
