import type { Config } from '../platform/config.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';
import { sseReader, type SseMessage } from './listen-sse.ts';
import { forwardEvent, merchantServer, readSandboxKey, type MerchantServer } from './listen-transport.ts';

const RECONNECT_DELAY_MS_MIN = 1000;
const RECONNECT_DELAY_MS_MAX = 30_000;
const SILENCE_MS_MAX = 45_000; // the server sends a comment every 15 s: three missed means the connection is dead
const TYPES_TEXT_LENGTH_MAX = 400;

export interface ListenOptions {
  key?: string | undefined;
  'forward-to'?: string | undefined;
  events?: string | undefined;
  url?: string | undefined;
}

interface StreamedEvent {
  id: string;
  type: string | null;
  paymentToken: string;
  headers: Record<string, string>;
  body: string;
}

type SessionEnd = { kind: 'ended'; reason: string; connected: boolean } | { kind: 'refused'; status: number; message: string };

// payrail listen: the sandbox's events as they happen (GET /api/v1/events/stream), each POSTed with its very headers
// and body to --forward-to, one line printed per event. Reconnects with backoff, resuming after the last event
// forwarded; ends when `stop` aborts (Ctrl-C).
export async function runListenCommand(config: Config, options: ListenOptions, print: (line: string) => void, stop: AbortSignal): Promise<void> {
  const key = readSandboxKey(options.key);
  const forwardTo = readForwardUrl(options['forward-to']);
  if (options.events !== undefined && (options.events.length > TYPES_TEXT_LENGTH_MAX || !/^[a-z_.*,]+$/.test(options.events))) {
    throw new CliError('--events is a comma-separated list of types or families, like payment.*,refund.approved');
  }
  const server = merchantServer(config, options.url, key);
  const state = { lastEventId: null as string | null, announced: false };
  let failures = 0;
  try {
    while (!stop.aborted) {
      const end = await listenOnce(server, { forwardTo, events: options.events, state }, print, stop);
      if (stop.aborted) break;
      if (end.kind === 'refused') {
        if (end.status === 404 && state.lastEventId !== null) {
          print(`the last event forwarded (${state.lastEventId}) is no longer kept; going on from now`);
          state.lastEventId = null;
          continue;
        }
        if (end.status !== 429 && end.status < 500)
          throw new CliError(`the event stream was refused with HTTP ${end.status}: ${end.message}`, EXIT_CODES.failed);
      }
      if (end.kind === 'ended' && end.connected) failures = 0;
      const delayMs = Math.min(RECONNECT_DELAY_MS_MAX, RECONNECT_DELAY_MS_MIN * 2 ** failures);
      failures = Math.min(failures + 1, 10);
      print(`disconnected (${end.kind === 'ended' ? end.reason : `HTTP ${end.status}: ${end.message}`}); reconnecting in ${delayMs / 1000} s`);
      await sleep(delayMs, stop);
    }
  } finally {
    server.close();
  }
}

function readForwardUrl(text: string | undefined): string {
  if (text === undefined) throw new CliError('--forward-to is required: the URL of your local endpoint, like http://localhost:3000/webhooks');
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new CliError(`--forward-to must be an http(s) URL, not "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError(`--forward-to must be an http(s) URL, not "${text}"`);
  return url.toString();
}

interface Session {
  forwardTo: string;
  events: string | undefined;
  state: { lastEventId: string | null; announced: boolean };
}

// One connection to the stream, until it ends; its events are forwarded one after another, in order.
async function listenOnce(server: MerchantServer, session: Session, print: (line: string) => void, stop: AbortSignal): Promise<SessionEnd> {
  const query = session.events === undefined ? '' : `?types=${encodeURIComponent(session.events)}`;
  const { state } = session;
  const opened = server.openStream(`/api/v1/events/stream${query}`, state.lastEventId === null ? {} : { 'last-event-id': state.lastEventId });
  const onStop = () => opened.abort();
  stop.addEventListener('abort', onStop, { once: true });
  try {
    const response = await opened.response.catch((error: unknown) => error as Error);
    if (response instanceof Error) return { kind: 'ended', reason: `cannot reach ${server.url}: ${response.message}`, connected: false };
    if (response.statusCode !== 200) return { kind: 'refused', status: response.statusCode ?? 0, message: await errorMessageOf(response) };
    print(state.announced ? `reconnected to ${server.url}` : `Ready: forwarding sandbox events from ${server.url} to ${session.forwardTo} (Ctrl-C to stop)`);
    state.announced = true;
    let forwarding = Promise.resolve();
    const forward = async (message: SseMessage) => {
      const event = JSON.parse(message.data) as StreamedEvent;
      const startedAt = performance.now();
      const answer = await forwardEvent(session.forwardTo, event.headers, event.body);
      const ms = Math.round(performance.now() - startedAt);
      const outcome = 'status' in answer ? `${answer.status}  ${ms}ms` : `error ${answer.error}`;
      print(`${new Date().toISOString()}  ${event.type ?? 'unknown'}  ${event.paymentToken}  -> ${outcome}`);
      state.lastEventId = message.id ?? event.id;
    };
    const read = sseReader((message) => {
      forwarding = forwarding.then(() => forward(message)).catch((error: unknown) => print(`could not forward an event: ${(error as Error).message}`));
    });
    const reason = await new Promise<string>((resolve) => {
      let silence = setTimeout(() => response.destroy(new Error('no heartbeat')), SILENCE_MS_MAX);
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        clearTimeout(silence);
        silence = setTimeout(() => response.destroy(new Error('no heartbeat for 45 s')), SILENCE_MS_MAX);
        try {
          read(chunk);
        } catch (error) {
          response.destroy(error as Error);
        }
      });
      response.once('end', () => resolve('the server ended the stream'));
      response.once('error', (error) => resolve(error.message));
      response.once('close', () => {
        clearTimeout(silence);
        resolve('connection closed');
      });
    });
    await forwarding;
    return { kind: 'ended', reason, connected: true };
  } finally {
    stop.removeEventListener('abort', onStop);
  }
}

async function errorMessageOf(response: import('node:http').IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) {
    chunks.push(chunk as Buffer);
    if (chunks.length > 64) break;
  }
  const text = Buffer.concat(chunks).toString('utf8');
  try {
    const parsed = JSON.parse(text) as { errors?: { code?: string; message?: string }[] };
    const first = parsed.errors?.[0];
    if (first) return `${first.code ?? 'error'}: ${first.message ?? ''}`;
  } catch {}
  return text.slice(0, 200);
}

function sleep(ms: number, stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      stop.removeEventListener('abort', done);
      resolve();
    }
    stop.addEventListener('abort', done, { once: true });
  });
}
