import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';

interface ReceivedRequest {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  received: ReceivedRequest[];
  // status codes to answer, in order; once used up, 200
  failNext(statuses: number[]): void;
  close(): Promise<void>;
}

// A real merchant endpoint on 127.0.0.1 that records what it gets.
export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedRequest[] = [];
  const plannedStatuses: number[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      response.statusCode = plannedStatuses.shift() ?? 200;
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('receiver has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    failNext: (statuses) => plannedStatuses.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
