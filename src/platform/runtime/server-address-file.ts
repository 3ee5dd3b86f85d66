import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.ts';
import { isProcessAlive, writeFileAtomically } from '../lib/data-dir.ts';
import { selfSignedCertPath } from '../lib/tls.ts';
import { errorCode, errorMessage, isJsonObject } from '../lib/type-guards.ts';

// `npm start` says where it listens in the data folder, so the CLI on the same machine finds it without --url.
const SERVER_ADDRESS_FILE_NAME = 'server.json';
const SERVER_ADDRESS_FILE_BYTES_MAX = 8 * 1024;

export interface ServerAddress {
  url: string; // where a client on this machine reaches the API, admin API included
  port: number; // the port actually bound (PORT=0 picks one)
  pid: number; // the server's process: a file whose process is gone is stale
  caFile: string | null; // the certificate the server presents, to trust when it is self-signed
  startedAt: string;
}

export type FoundServerAddress =
  | { state: 'running'; address: ServerAddress; path: string }
  | { state: 'stale'; address: ServerAddress; path: string } // its server died without removing it (killed, crashed)
  | { state: 'absent'; path: string }
  | { state: 'unreadable'; path: string; reason: string };

function serverAddressPath(dataDir: string): string {
  return join(dataDir, SERVER_ADDRESS_FILE_NAME);
}

// The self-signed certificate names localhost, so the listening address works; an operator's certificate and a
// TLS-terminating proxy answer to the public URL's host instead.
export function serverAddressOf(
  config: Config,
  tls: { selfSigned: boolean } | null,
  listeningUrl: string,
  port: number,
): Omit<ServerAddress, 'pid' | 'startedAt'> {
  return {
    url: tls?.selfSigned ? listeningUrl : config.publicUrl,
    port,
    caFile: tls === null ? null : (config.tlsCertPath ?? selfSignedCertPath(config.dataDir)),
  };
}

// Returns the function that removes the file on shutdown, unless another server has written its own since.
export function publishServerAddress(dataDir: string, address: Omit<ServerAddress, 'pid' | 'startedAt'>): () => void {
  const path = serverAddressPath(dataDir);
  const published: ServerAddress = { ...address, pid: process.pid, startedAt: new Date().toISOString() };
  writeFileAtomically(path, `${JSON.stringify(published, null, 2)}\n`);
  return () => {
    const found = readServerAddress(dataDir);
    if (found.state === 'running' && found.address.pid === process.pid) rmSync(path, { force: true });
  };
}

export function readServerAddress(dataDir: string): FoundServerAddress {
  const path = serverAddressPath(dataDir);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { state: 'absent', path };
    return { state: 'unreadable', path, reason: errorMessage(error) };
  }
  if (text.length > SERVER_ADDRESS_FILE_BYTES_MAX) return { state: 'unreadable', path, reason: `larger than ${SERVER_ADDRESS_FILE_BYTES_MAX} bytes` };
  const address = parseServerAddress(text);
  if (address === null) return { state: 'unreadable', path, reason: 'not a server address written by payrail start' };
  return { state: isProcessAlive(address.pid) ? 'running' : 'stale', address, path };
}

function parseServerAddress(text: string): ServerAddress | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (!isJsonObject(value)) return null;
  const { url, port, pid, caFile, startedAt } = value;
  if (typeof url !== 'string' || !/^https?:\/\/[^/]+$/.test(url)) return null;
  if (typeof port !== 'number' || !Number.isInteger(port) || port < 1 || port > 65_535) return null;
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid < 1) return null;
  if (caFile !== null && typeof caFile !== 'string') return null;
  if (typeof startedAt !== 'string') return null;
  return { url, port, pid, caFile, startedAt };
}

// PORT=0 lets the system choose: say the port it chose.
export function boundPort(server: { address(): string | { port: number } | null }, configuredPort: number): number {
  const address = server.address();
  return address !== null && typeof address === 'object' ? address.port : configuredPort;
}
