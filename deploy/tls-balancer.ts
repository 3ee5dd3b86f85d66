// A TLS-passthrough load balancer for the example topology (deploy/balancer.ts runs it): TCP round-robin per
// connection over the api processes that are up. The api processes terminate TLS themselves with the one
// certificate they share, so the balancer never holds a key and a client verifies the api's certificate end to end.
// Health: every backend is asked GET /health over HTTPS (Payrail's answers 200 only while its database answers);
// HEALTH_FAILURES_TO_DOWN failures in a row take it out, one success brings it back. A connection that a backend
// refuses is taken by the next one, so a process that dies between two checks costs no client a failed request.
import { request } from 'node:https';
import { startPassthrough, type PassthroughBackend } from './tcp-passthrough.ts';

const HEALTH_INTERVAL_MS = 1_000;
const HEALTH_TIMEOUT_MS = 2_000;
const HEALTH_FAILURES_TO_DOWN = 2;

export interface BackendAddress {
  host: string;
  port: number;
}

interface Backend extends PassthroughBackend {
  name: string; // host:port
  failures: number; // health checks failed in a row
}

export interface BalancerOptions {
  backends: BackendAddress[];
  listenHost: string;
  listenPort: number; // 0: any free port
  ca: string | null; // PEM the backends' certificate verifies against (null: the system's CAs)
  servername: string; // the name their certificate carries
  log: (line: string) => void;
}

export interface RunningBalancer {
  port: number;
  connectionsPerBackend(): Record<string, number>;
  close(): Promise<void>;
}

function healthy(backend: Backend, options: BalancerOptions): Promise<string | null> {
  return new Promise((resolve) => {
    const probe = request(
      {
        host: backend.host,
        port: backend.port,
        path: '/health',
        method: 'GET',
        servername: options.servername,
        agent: false,
        timeout: HEALTH_TIMEOUT_MS,
        ...(options.ca ? { ca: options.ca } : {}),
      },
      (response) => {
        response.resume();
        resolve(response.statusCode === 200 ? null : `GET /health answered ${response.statusCode}`);
      },
    );
    probe.once('timeout', () => probe.destroy(new Error(`no answer within ${HEALTH_TIMEOUT_MS} ms`)));
    probe.once('error', (error) => resolve(error.message));
    probe.end();
  });
}

export async function startTlsBalancer(options: BalancerOptions): Promise<RunningBalancer> {
  const backends: Backend[] = options.backends.map((address) => ({
    ...address,
    name: `${address.host}:${address.port}`,
    up: true,
    failures: 0,
    connections: 0,
  }));
  const markDown = (backend: Backend, reason: string) => {
    if (backend.up) options.log(`balancer: ${backend.name} down (${reason})`);
    backend.up = false;
  };
  const check = async (backend: Backend) => {
    const failure = await healthy(backend, options);
    if (failure === null) {
      if (!backend.up) options.log(`balancer: ${backend.name} up`);
      backend.up = true;
      backend.failures = 0;
    } else if (++backend.failures >= HEALTH_FAILURES_TO_DOWN) markDown(backend, failure);
  };
  const passthrough = await startPassthrough(backends, { host: options.listenHost, port: options.listenPort }, markDown);
  const checks = setInterval(() => {
    for (const backend of backends) void check(backend);
  }, HEALTH_INTERVAL_MS);
  return {
    port: passthrough.port,
    connectionsPerBackend: () => Object.fromEntries(backends.map((backend) => [backend.name, backend.connections])),
    close: async () => {
      clearInterval(checks);
      await passthrough.close();
    },
  };
}
