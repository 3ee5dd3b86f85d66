import { createServer, type Server } from 'node:http';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers, type RunningWorkers } from '../../../src/workers/runner.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';

const engines = await testEngines();
const WORKER_POLL_MS = 60_000; // passes are driven with tick()
const CLAIM_BATCH = 50; // workers/runner.ts CLAIM_BATCH_MAX
const SINGLE_EVENT_PAYMENTS = 150;
const THREE_EVENT_PAYMENTS = 10;
const ANSWER_DELAY_MS = 150; // long enough that batches sent side by side overlap at the endpoint

interface Arrival {
  token: string;
  sequence: number | null;
}

// A merchant endpoint that answers after a delay and counts the requests it holds at once.
async function startSlowEndpoint(): Promise<{ url: string; arrivals: Arrival[]; mostAtOnce: () => number; close: () => Promise<void> }> {
  const arrivals: Arrival[] = [];
  let open = 0;
  let most = 0;
  const server: Server = createServer((request, response) => {
    open += 1;
    most = Math.max(most, open);
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const sequence = request.headers['x-payrail-event-sequence'];
      arrivals.push({ token: JSON.parse(Buffer.concat(chunks).toString('utf8')).token, sequence: sequence === undefined ? null : Number(sequence) });
      setTimeout(() => {
        open -= 1;
        response.end('ok');
      }, ANSWER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('endpoint has no port');
  return {
    url: `http://127.0.0.1:${address.port}/hook`,
    arrivals,
    mostAtOnce: () => most,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

// Under a backlog the notifier runs several batches side by side (workers/runner.ts drainTopic): a batch mostly waits
// on its claim, its sends and its record, and one at a time fell behind the approvals. The lanes must never reorder
// one payment's events: a later event is claimed only once the earlier one is done.
describe.each(engines)('notification batches side by side on %s', (engine) => {
  let harness: Harness;
  let merchant: TestMerchant;
  let endpoint: Awaited<ReturnType<typeof startSlowEndpoint>>;
  let workers: RunningWorkers;

  beforeAll(async () => {
    harness = await startHarness(engine);
    merchant = await harness.createMerchant();
    endpoint = await startSlowEndpoint();
    workers = startWorkers({ context: harness.app.payrail, adapterClient: harness.app.payrail.adapterClient }, harness.app.log, WORKER_POLL_MS);
  });
  afterAll(async () => {
    await workers?.stop();
    await endpoint?.close();
    await harness?.close();
  });

  it('sends more than one batch at once under a backlog and keeps each payment’s events in order', async () => {
    const payments = SINGLE_EVENT_PAYMENTS + THREE_EVENT_PAYMENTS;
    await harness.database.db.execute(sql`with made as (
        insert into payments (token, merchant_id, environment, request_variant, status, product, amount_minor, currency,
          gateway_amount_minor, gateway_currency, locale, callback_url, order_number, captured_minor)
        select md5('lanes-' || n), ${merchant.id}, 'sandbox', 'A', 'approved', 'Order', 5000, 'EUR', 5000, 'EUR', 'en',
          ${endpoint.url}, 'lanes-' || n, 5000
        from generate_series(1, ${payments}) as n
        returning id, order_number)
      insert into outbox (topic, payment_id, due_at, event_id, event_sequence)
      select 'notification', made.id, now(), 'evt-' || made.order_number || '-' || sequence, sequence
      from made cross join lateral generate_series(1, case when split_part(made.order_number, '-', 2)::int > ${SINGLE_EVENT_PAYMENTS} then 3 else 1 end) as sequence`);
    const expected = SINGLE_EVENT_PAYMENTS + 3 * THREE_EVENT_PAYMENTS;

    for (let pass = 0; pass < 4 && endpoint.arrivals.length < expected; pass += 1) await workers.tick();

    expect(endpoint.arrivals).toHaveLength(expected);
    expect(endpoint.mostAtOnce()).toBeGreaterThan(CLAIM_BATCH);
    const sequencesByToken = new Map<string, number[]>();
    for (const arrival of endpoint.arrivals) sequencesByToken.set(arrival.token, [...(sequencesByToken.get(arrival.token) ?? []), arrival.sequence ?? 0]);
    const threeEvents = [...sequencesByToken.values()].filter((sequences) => sequences.length > 1);
    expect(threeEvents).toHaveLength(THREE_EVENT_PAYMENTS);
    for (const sequences of threeEvents) expect(sequences).toEqual([1, 2, 3]);
  });
});
