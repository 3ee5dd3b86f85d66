import { createServer, type Server } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../database.ts';
import { countCommits } from '../lib/commit-observer.ts';
import type { ServiceMetrics } from '../lib/service-metrics.ts';
import { errorCode } from '../lib/type-guards.ts';
import { registerOutboxGauges, startLedgerChecks } from './metrics-gauges.ts';
import { createMetricsRegistry } from './metrics-registry.ts';

export interface ObservedService {
  metrics: ServiceMetrics;
  listen(log: FastifyBaseLogger): Promise<string | null>; // the metrics URL; null when the default port was taken
  close(): Promise<void>;
}

type MetricsListener = NonNullable<Config['metrics']>;

// A process's metrics: counted from start-up, served once the service listens, on a listener of their own
// (PAYRAIL_METRICS_HOST:PAYRAIL_METRICS_PORT, 127.0.0.1 by default), never on the API's port. The worker role
// runs the periodic ledger check whose result a gauge shows.
export function observeService(listener: MetricsListener, db: Db, options: { ledgerChecks: boolean }): ObservedService {
  const { registry, metrics } = createMetricsRegistry();
  registerOutboxGauges(registry, db);
  const stopCounting = countCommits(db, metrics);
  let stopLedgerChecks = async () => {};
  let log: FastifyBaseLogger | null = null;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        log?.error({ err: error }, 'metrics scrape failed');
        response.writeHead(500, { 'content-type': 'text/plain' }).end('scrape failed\n');
      },
    );
  });
  let listening = false;
  return {
    metrics,
    async listen(serviceLog) {
      log = serviceLog;
      if (options.ledgerChecks) stopLedgerChecks = startLedgerChecks(registry, db, serviceLog);
      try {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject);
          server.listen(listener.port, listener.host, () => resolve());
        });
      } catch (error) {
        // The default port of the embedded start is a convenience: a second Payrail on the machine still starts.
        if (listener.explicit || errorCode(error) !== 'EADDRINUSE') throw error;
        serviceLog.warn({ port: listener.port }, 'metrics port in use: no /metrics for this process (set PAYRAIL_METRICS_PORT)');
        return null;
      }
      listening = true;
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : listener.port;
      const host = listener.host.includes(':') ? `[${listener.host}]` : listener.host;
      return `http://${host}:${port}/metrics`;
    },
    async close() {
      stopCounting();
      await stopLedgerChecks();
      if (listening) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections(); // a scraper's keep-alive connection would hold the close
        await closed;
      }
      registry.clear();
    },
  };
}
