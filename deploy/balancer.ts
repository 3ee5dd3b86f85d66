// `node deploy/balancer.ts`: the example topology's TLS load balancer (deploy/Procfile). TCP round-robin over
// BALANCER_BACKENDS (host:port, comma-separated), TLS passed through to the api processes, which hold the one
// certificate; a backend that refuses a connection is skipped until it answers again. The same balancer stands in
// front of the api processes in `npm run chaos`, under kill -9. Prints the connections each backend took when stopped.
import { startBalancer } from '../bench/chaos/balancer.ts';

const BACKENDS_MAX = 64;

function backendPortsOf(text: string | undefined): number[] {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || entries.length > BACKENDS_MAX) throw new Error(`BALANCER_BACKENDS must name 1 to ${BACKENDS_MAX} host:port entries`);
  return entries.map((entry) => {
    const match = /^(?:127\.0\.0\.1|localhost):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[1]);
    if (!match || port < 1 || port > 65_535) throw new Error(`BALANCER_BACKENDS entry "${entry}" is not 127.0.0.1:<port> (this example balances one machine)`);
    return port;
  });
}

async function main(): Promise<void> {
  const ports = backendPortsOf(process.env['BALANCER_BACKENDS']);
  const listenPort = Number(process.env['BALANCER_PORT'] ?? '0');
  if (!Number.isInteger(listenPort) || listenPort < 0 || listenPort > 65_535) throw new Error('BALANCER_PORT must be a port number');
  const balancer = await startBalancer(ports, listenPort);
  process.stdout.write(`balancer: listening on ${balancer.port}, passing TLS through to ${ports.join(', ')}\n`);
  const stop = () => {
    process.stdout.write(`balancer: ${JSON.stringify({ connectionsPerBackend: balancer.connectionsPerBackend() })}\n`);
    balancer.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`balancer: ${(error as Error).message}\n`);
  process.exit(1);
});
