// The TCP side of a TLS-passthrough balancer: round-robin per connection over the backends that are up, TLS passed
// through untouched. A backend that refuses or times out a connection before a byte went through is reported down
// (markDown) and the next one takes the connection. Who brings a backend back up is the caller's: the example's
// balancer asks GET /health (deploy/tls-balancer.ts), the chaos run's probes the port (bench/chaos/balancer.ts).
import { connect, createServer, type Socket } from 'node:net';

const CONNECT_TIMEOUT_MS = 2_000;

export interface PassthroughBackend {
  host: string;
  port: number;
  up: boolean;
  connections: number; // client connections it took
}

export interface Passthrough {
  port: number;
  close(): Promise<void>;
}

// The next backend that is up and not yet tried for this connection.
function roundRobin<B extends { up: boolean }>(backends: readonly B[]): (tried: ReadonlySet<B>) => B | null {
  let next = 0;
  return (tried) => {
    for (let offset = 0; offset < backends.length; offset += 1) {
      const backend = backends[(next + offset) % backends.length]!;
      if (backend.up && !tried.has(backend)) {
        next = (next + offset + 1) % backends.length;
        return backend;
      }
    }
    return null;
  };
}

export async function startPassthrough<B extends PassthroughBackend>(
  backends: readonly B[],
  listen: { host: string; port: number }, // port 0: any free port
  markDown: (backend: B, reason: string) => void,
): Promise<Passthrough> {
  const sockets = new Set<Socket>();
  const pick = roundRobin(backends);

  const pipeTo = (client: Socket, tried: Set<B>) => {
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
      sockets.delete(upstream);
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
    server.listen(listen.port, listen.host, () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : listen.port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
