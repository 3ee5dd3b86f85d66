import { connect, createServer, type Server, type Socket } from 'node:net';
import { roundRobin } from '../../deploy/round-robin.ts';

// A TCP balancer in front of the api processes: round-robin over the backends not known to be down. A backend that
// refuses a connection is dropped until a probe connects again; TLS passes through untouched.

const PROBE_INTERVAL_MS = 250;
const CONNECT_TIMEOUT_MS = 2_000;

interface Backend {
  port: number;
  up: boolean;
  connected: number; // connections it took
}

export interface Balancer {
  port: number;
  connections(): number;
  connectionsPerBackend(): Record<string, number>; // by port
  close(): Promise<void>;
}

export async function startBalancer(backendPorts: number[], port = 0): Promise<Balancer> {
  const backends: Backend[] = backendPorts.map((backendPort) => ({ port: backendPort, up: true, connected: 0 }));
  const sockets = new Set<Socket>();
  let accepted = 0;

  const pick = roundRobin(backends);

  const pipeTo = (client: Socket, tried: Set<Backend>) => {
    const backend = pick(tried);
    if (backend === null) {
      client.destroy(); // nobody is up: the client sees a reset, as from a real balancer with no backend
      return;
    }
    tried.add(backend);
    const upstream = connect({ host: '127.0.0.1', port: backend.port });
    sockets.add(upstream);
    let connected = false;
    upstream.setTimeout(CONNECT_TIMEOUT_MS, () => {
      if (!connected) upstream.destroy(new Error('connect timeout'));
    });
    upstream.once('connect', () => {
      connected = true;
      backend.connected += 1;
      upstream.setTimeout(0);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('error', () => {
      if (!connected) {
        backend.up = false;
        sockets.delete(upstream);
        pipeTo(client, tried); // not a byte was sent: another backend may take it
      } else client.destroy();
    });
    upstream.once('close', () => {
      sockets.delete(upstream);
      if (connected) client.destroy();
    });
  };

  const server: Server = createServer({ pauseOnConnect: true }, (client) => {
    accepted += 1;
    sockets.add(client);
    client.once('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    pipeTo(client, new Set());
  });

  const probe = setInterval(() => {
    for (const backend of backends.filter((candidate) => !candidate.up)) {
      const socket = connect({ host: '127.0.0.1', port: backend.port });
      socket.setTimeout(CONNECT_TIMEOUT_MS, () => socket.destroy());
      socket.once('connect', () => {
        backend.up = true;
        socket.destroy();
      });
      socket.once('error', () => socket.destroy());
    }
  }, PROBE_INTERVAL_MS);
  probe.unref();

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  return {
    port: typeof address === 'object' && address !== null ? address.port : port,
    connections: () => accepted,
    connectionsPerBackend: () => Object.fromEntries(backends.map((backend) => [String(backend.port), backend.connected])),
    close: async () => {
      clearInterval(probe);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
