// `node deploy/balancer.ts`: the example topology's TLS load balancer (deploy/Procfile, tls-balancer.ts), configured
// by the environment:
//   BALANCER_BACKENDS   the api processes, host:port, comma-separated (required)
//   BALANCER_HOST       where it listens (default 127.0.0.1), BALANCER_PORT (default 0: any free port)
//   BALANCER_CA_FILE    PEM the api processes' certificate verifies against for health checks (the example's
//                       self-signed certificate is its own; unset: the system's CAs, for a certificate a public CA issued)
//   PAYRAIL_PUBLIC_URL  its host is the name the certificate must carry (default localhost)
// Prints one line per backend going down or up, and the connections each backend took when stopped (or on SIGUSR2).
import { readFileSync } from 'node:fs';
import { type BackendAddress, startTlsBalancer } from './tls-balancer.ts';

const BACKENDS_MAX = 64;

function backendsOf(text: string | undefined): BackendAddress[] {
  const entries = (text ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0 || entries.length > BACKENDS_MAX) throw new Error(`BALANCER_BACKENDS must name 1 to ${BACKENDS_MAX} host:port entries`);
  return entries.map((entry) => {
    const match = /^([A-Za-z0-9.-]+|\[[0-9A-Fa-f:]+\]):(\d{1,5})$/.exec(entry);
    const port = Number(match?.[2]);
    if (!match || port < 1 || port > 65_535) throw new Error(`BALANCER_BACKENDS entry "${entry}" is not host:port`);
    return { host: match[1]!.replace(/^\[|\]$/g, ''), port };
  });
}

async function main(): Promise<void> {
  const backends = backendsOf(process.env['BALANCER_BACKENDS']);
  const listenPort = Number(process.env['BALANCER_PORT'] || '0');
  if (!Number.isInteger(listenPort) || listenPort < 0 || listenPort > 65_535) throw new Error('BALANCER_PORT must be a port number');
  const caFile = process.env['BALANCER_CA_FILE'];
  const publicUrl = process.env['PAYRAIL_PUBLIC_URL'];
  const log = (line: string) => process.stdout.write(`${line}\n`);
  const balancer = await startTlsBalancer({
    backends,
    listenHost: process.env['BALANCER_HOST'] || '127.0.0.1',
    listenPort,
    ca: caFile ? readFileSync(caFile, 'utf8') : null,
    servername: publicUrl ? new URL(publicUrl).hostname : 'localhost',
    log,
  });
  log(`balancer: listening on ${balancer.port}, passing TLS through to ${backends.map((backend) => `${backend.host}:${backend.port}`).join(', ')}`);
  const stop = () => {
    log(`balancer: ${JSON.stringify({ connectionsPerBackend: balancer.connectionsPerBackend() })}`);
    balancer.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // SIGUSR2: the counts so far, without stopping (npm run deploy:example reads them between its steps).
  process.on('SIGUSR2', () => log(`balancer: ${JSON.stringify({ connectionsPerBackend: balancer.connectionsPerBackend() })}`));
}

main().catch((error: unknown) => {
  process.stderr.write(`balancer: ${(error as Error).message}\n`);
  process.exit(1);
});
