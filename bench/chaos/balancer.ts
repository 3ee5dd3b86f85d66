import { connect } from 'node:net';
import { startPassthrough, type PassthroughBackend } from '../../deploy/tcp-passthrough.ts';

// A TCP balancer in front of the api processes (deploy/tcp-passthrough.ts): round-robin over the backends not known
// to be down. A backend that refuses a connection is dropped until a probe connects again; TLS passes through.

const PROBE_INTERVAL_MS = 250;
const PROBE_TIMEOUT_MS = 2_000;

export interface Balancer {
  port: number;
  close(): Promise<void>;
}

export async function startBalancer(backendPorts: number[], port = 0): Promise<Balancer> {
  const backends: PassthroughBackend[] = backendPorts.map((backendPort) => ({ host: '127.0.0.1', port: backendPort, up: true, connections: 0 }));
  const passthrough = await startPassthrough(backends, { host: '127.0.0.1', port }, (backend) => {
    backend.up = false;
  });
  const probe = setInterval(() => {
    for (const backend of backends.filter((candidate) => !candidate.up)) {
      const socket = connect({ host: backend.host, port: backend.port });
      socket.setTimeout(PROBE_TIMEOUT_MS, () => socket.destroy());
      socket.once('connect', () => {
        backend.up = true;
        socket.destroy();
      });
      socket.once('error', () => socket.destroy());
    }
  }, PROBE_INTERVAL_MS);
  probe.unref();
  return {
    port: passthrough.port,
    close: async () => {
      clearInterval(probe);
      await passthrough.close();
    },
  };
}
