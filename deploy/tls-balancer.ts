// A TLS-passthrough load balancer for the example topology (deploy/balancer.ts runs it): TCP round-robin per
// connection over the api processes that are up. The api processes terminate TLS themselves with the one
// certificate they share, so the balancer never holds a key and a client verifies the api's certificate end to end.
// Health: every backend is asked GET /health over HTTPS (Payrail's answers 200 only while its database answers);
// HEALTH_FAILURES_TO_DOWN failures in a row take it out, one success brings it back. A connection that a backend
// refuses is taken by the next one, so a process that dies between two checks costs no client a failed request.
import { request } from 'node:https';
import { connect, createServer, type Socket } from 'node:net';
import { roundRobin } from './round-robin.ts';

const HEALTH_INTERVAL_MS = 1_000;
const HEALTH_TIMEOUT_MS = 2_000;
const HEALTH_FAILURES_TO_DOWN = 2;
const CONNECT_TIMEOUT_MS = 2_000;

export interface BackendAddress {
  host: string;
  port: number;
}

interface Backend extends BackendAddress {
  name: string; // host:port
  up: boolean;
  failures: number; // health checks failed in a row
  connections: number; // client connections it took
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
  const sockets = new Set<Socket>();

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
  const checks = setInterval(() => {
    for (const backend of backends) void check(backend);
  }, HEALTH_INTERVAL_MS);

  const pick = roundRobin(backends);

  const pipeTo = (client: Socket, tried: Set<Backend>) => {
    const backend = pick(tried);
    if (backend === null) {
      client.destroy(); // no backend up: the client sees its connection reset, as from any balancer
      return;
    }
    tried.add(backend);
    const upstream = connect({ host: backend.host, port: backend.port });
    sockets.add(upstream);
    let connected = false;
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => {
      if (!connected) upstream.destroy(new Error('connect timeout'));
    });
    upstream.once('connect', () => {
      connected = true;
      backend.connections += 1;
      upstream.setTimeout(0);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('error', (error) => {
      if (connected) {
        client.destroy();
        return;
      }
      markDown(backend, error.message);
      pipeTo(client, tried); // not a byte went through: the next backend takes the connection
    });
    upstream.once('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
  };

  const server = createServer({ pauseOnConnect: true }, (client) => {
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    pipeTo(client, new Set());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.listenPort, options.listenHost, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : options.listenPort,
    connectionsPerBackend: () => Object.fromEntries(backends.map((backend) => [backend.name, backend.connections])),
    close: async () => {
      clearInterval(checks);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
