import { rootCertificates } from 'node:tls';
import type { Server } from 'node:http';
import Fastify, { type FastifyHttpOptions, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Agent, type Dispatcher } from 'undici';
import { loggerOptions } from '../platform/lib/logger.ts';
import type { Db } from '../platform/database.ts';
import { sandboxAdapterRoutes } from './routes.ts';

const SERVER_BODY_LIMIT_BYTES = 1024 * 1024;
const CALLBACK_CONNECTIONS_PER_ORIGIN_MAX = 16;

export interface SandboxAdapterServerOptions {
  host: string;
  port: number;
  publicBaseUrl: string; // its path becomes the route prefix, e.g. https://localhost:9443/sandbox-adapter
  allowedOrigin: string; // Payrail's public origin (PAYRAIL_PUBLIC_URL of the business service)
  secret: string; // shared with the business service (PAYRAIL_SANDBOX_ADAPTER_SECRET)
  db: Db; // the business service's database: the transactions are shared with its in-process sandbox
  https?: { cert: string; key: string };
  callbackDispatcher?: Dispatcher; // wins over callbackCa
  callbackCa?: readonly string[]; // extra CAs (PEM) to trust for callbacks, e.g. the core's self-signed certificate
  asyncApprovalDelayMs?: number;
  callbackPollMs?: number;
  logLevel?: string | false; // default 'info'; false turns logging off
}

export interface RunningSandboxAdapter {
  app: FastifyInstance;
  url: string; // where it listens (publicBaseUrl may differ behind a proxy)
  stop(): Promise<void>;
}

// Runs the sandbox adapter alone (payrail start --role sandbox-adapter). The caller owns the database.
export async function startSandboxAdapter(options: SandboxAdapterServerOptions): Promise<RunningSandboxAdapter> {
  const prefix = new URL(options.publicBaseUrl).pathname.replace(/\/+$/, '');
  const serverOptions: FastifyServerOptions = {
    logger: options.logLevel === false ? false : loggerOptions(options.logLevel ?? 'info'),
    bodyLimit: SERVER_BODY_LIMIT_BYTES,
  };
  // Fastify reads `https` at run time; typed as the plain HTTP options, the instance keeps the FastifyInstance type.
  const withTls: FastifyHttpOptions<Server> = Object.assign({}, serverOptions, options.https ? { https: options.https } : {});
  const app: FastifyInstance = Fastify(withTls);
  const ownDispatcher =
    options.callbackDispatcher === undefined && options.callbackCa !== undefined && options.callbackCa.length > 0
      ? new Agent({ connections: CALLBACK_CONNECTIONS_PER_ORIGIN_MAX, connect: { ca: [...rootCertificates, ...options.callbackCa] } })
      : undefined;
  const callbackDispatcher = options.callbackDispatcher ?? ownDispatcher;
  try {
    app.get('/health', async () => ({ status: 'ok' }));
    await app.register(sandboxAdapterRoutes, {
      prefix,
      publicBaseUrl: options.publicBaseUrl,
      allowedOrigin: options.allowedOrigin,
      secret: options.secret,
      db: options.db,
      ...(options.callbackPollMs === undefined ? {} : { callbackPollMs: options.callbackPollMs }),
      ...(callbackDispatcher === undefined ? {} : { callbackDispatcher }),
      ...(options.asyncApprovalDelayMs === undefined ? {} : { asyncApprovalDelayMs: options.asyncApprovalDelayMs }),
    });
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    await app.close().catch(() => {});
    await ownDispatcher?.close().catch(() => {});
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    app,
    url: `${options.https ? 'https' : 'http'}://${host}:${port}${prefix}`,
    stop: async () => {
      await app.close();
      await ownDispatcher?.close();
    },
  };
}
