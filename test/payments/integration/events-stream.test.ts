import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sseReader, type SseMessage } from '../../../src/cli/listen-sse.ts';
import { verifyModernSignature } from '../../../src/payments/domain/notification-signature.ts';
import { testEngines } from '../../support/databases.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';

const engines = await testEngines();
const WAIT_MS = 15_000;
const TOLERANCE_S = 300;

interface StreamedData {
  id: string;
  type: string;
  paymentToken: string;
  headers: Record<string, string>;
  body: string;
}

// Issue 23: GET /api/v1/events/stream sends each new sandbox event as it is queued, with the very headers and body
// the notifier sends, signed so that a forwarded copy verifies; it resumes after Last-Event-ID, filters by type,
// allows five streams a merchant and never holds the server's shutdown.
describe.each(engines)('the sandbox event stream on %s', (engine) => {
  let server: ServerHarness | null = null;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string; productionKey: string };
  const opened: { close(): void }[] = [];
  let streams: Agent; // its own: closing the harness's dispatcher would wait for the open streams

  beforeAll(async () => {
    server = await startServerHarness(engine);
    receiver = await startReceiver();
    merchant = await server.createMerchant('Stream merchant');
    streams = new Agent({ connect: { ca: readFileSync(join(server.running.app.payrail.config.dataDir, 'tls', 'cert.pem'), 'utf8') } });
  });
  afterAll(async () => {
    for (const stream of opened) stream.close();
    await receiver?.close();
    await server?.close();
    await streams?.destroy();
  });

  const running = () => {
    if (server === null) throw new Error('the server is closed');
    return server;
  };
  async function openStream(query = '', headers: Record<string, string> = {}, key = merchant.sandboxKey) {
    const controller = new AbortController();
    const response = await request(`${running().baseUrl}/api/v1/events/stream${query}`, {
      dispatcher: streams,
      headers: { authorization: `Bearer ${key}`, ...headers },
      signal: controller.signal,
    });
    const messages: SseMessage[] = [];
    let text = '';
    const read = sseReader((message) => messages.push(message));
    const ended = (async () => {
      try {
        for await (const chunk of response.body) {
          text += chunk.toString();
          read(chunk.toString());
        }
      } catch {}
    })();
    const stream = { status: response.statusCode, headers: response.headers, messages, text: () => text, ended, close: () => controller.abort() };
    opened.push(stream);
    return stream;
  }
  const pay = async (pan: string, orderNumber: string) => {
    const created = await running().call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: {
        product: 'Stream test order',
        amount: 1500,
        currency: 'USD',
        orderNumber,
        callbackUrl: `${receiver.url}/${orderNumber}`,
        card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' },
        customer: { email: 'ada@example.com', ip: '203.0.113.7' },
      },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    return created.body.token as string;
  };
  const dataOf = (message: SseMessage) => JSON.parse(message.data) as StreamedData;
  const verifies = (headers: Record<string, unknown>, body: string) =>
    verifyModernSignature(String(headers['x-payrail-signature']), body, merchant.sandboxKey, TOLERANCE_S, Math.floor(Date.now() / 1000));

  it('refuses a production key with 403 sandbox_only', async () => {
    const refused = await openStream('', {}, merchant.productionKey);
    await refused.ended;
    expect(refused.status).toBe(403);
    expect(JSON.parse(refused.text()).errors[0].code).toBe('sandbox_only');
  });

  it('sends an event as it is queued: the headers and body the notifier delivers, signed with the sandbox key', async () => {
    const stream = await openStream();
    expect(stream.status).toBe(200);
    expect(String(stream.headers['content-type'])).toMatch(/^text\/event-stream/);
    await expect.poll(() => stream.text(), { timeout: WAIT_MS }).toContain(': connected');
    const token = await pay('4242 4242 4242 4242', 'stream-approved');

    await expect.poll(() => stream.messages.length, { timeout: WAIT_MS, interval: 100 }).toBeGreaterThan(0);
    const [message] = stream.messages;
    const data = dataOf(message!);
    expect(message).toMatchObject({ id: data.id, event: 'payment.approved' });
    expect(data).toMatchObject({ type: 'payment.approved', paymentToken: token });
    expect(data.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect(Object.keys(data.headers).sort()).toEqual(['content-type', 'x-payrail-event-id', 'x-payrail-event-sequence', 'x-payrail-signature']);
    expect(data.headers).toMatchObject({ 'content-type': 'application/json', 'x-payrail-event-id': data.id, 'x-payrail-event-sequence': '1' });
    expect(verifies(data.headers, data.body)).toBe(true);

    await expect.poll(() => receiver.received.filter((item) => item.path === '/stream-approved').length, { timeout: WAIT_MS }).toBe(1);
    const [delivered] = receiver.received.filter((item) => item.path === '/stream-approved');
    expect(delivered!.body).toBe(data.body);
    expect(delivered!.headers['x-payrail-event-id']).toBe(data.id);
    stream.close();
  });

  it('sends only the types asked for, and resumes after Last-Event-ID', async () => {
    const filtered = await openStream('?types=payment.declined,refund.*');
    await expect.poll(() => filtered.text(), { timeout: WAIT_MS }).toContain(': connected');
    const approved = await pay('4242 4242 4242 4242', 'stream-filter-approved');
    const declined = await pay('4000 0000 0000 0002', 'stream-filter-declined');
    await expect.poll(() => filtered.messages.length, { timeout: WAIT_MS, interval: 100 }).toBeGreaterThan(0);
    expect(filtered.messages.map((message) => [message.event, dataOf(message).paymentToken])).toEqual([['payment.declined', declined]]);
    filtered.close();

    const listed = await running().call('GET', `/api/v1/events?type=payment.approved&limit=1`, { key: merchant.sandboxKey });
    expect(listed.body.events[0].paymentToken).toBe(approved);
    const resumed = await openStream('', { 'last-event-id': listed.body.events[0].id });
    await expect.poll(() => resumed.messages.length, { timeout: WAIT_MS, interval: 100 }).toBeGreaterThan(0);
    expect(dataOf(resumed.messages[0]!)).toMatchObject({ type: 'payment.declined', paymentToken: declined });
    resumed.close();

    const unknown = await openStream('?after=evt_00000000000000000000000000000000');
    await unknown.ended;
    expect(unknown.status).toBe(404);
    const badTypes = await openStream('?types=payment');
    await badTypes.ended;
    expect(badTypes.status).toBe(422);
  });

  it('allows five open streams of a merchant, and a sixth once one has closed', async () => {
    const five = await Promise.all(Array.from({ length: 5 }, () => openStream()));
    expect(five.map((stream) => stream.status)).toEqual([200, 200, 200, 200, 200]);
    const sixth = await openStream();
    await sixth.ended;
    expect(sixth.status).toBe(429);
    expect(JSON.parse(sixth.text()).errors[0].code).toBe('too_many_streams');
    five[0]!.close();
    await expect
      .poll(
        async () => {
          const again = await openStream();
          again.close();
          return again.status;
        },
        { timeout: WAIT_MS, interval: 200 },
      )
      .toBe(200);
    for (const stream of five) stream.close();
  });

  it('ends its open streams when the server shuts down, without holding it', async () => {
    await streams.destroy(); // the earlier tests' pooled connections: this test's stream has a client of its own
    streams = new Agent({ connect: { ca: readFileSync(join(running().running.app.payrail.config.dataDir, 'tls', 'cert.pem'), 'utf8') } });
    let stream = await openStream();
    for (let attempt = 0; attempt < 50 && stream.status === 429; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 200)); // the streams closed before are still being let go
      stream = await openStream();
    }
    await expect.poll(() => stream.text(), { timeout: WAIT_MS }).toContain(': connected');
    const startedAt = Date.now();
    const closing = running().close();
    server = null;
    await closing;
    await stream.ended;
    expect(Date.now() - startedAt).toBeLessThan(10_000);
  });
});
