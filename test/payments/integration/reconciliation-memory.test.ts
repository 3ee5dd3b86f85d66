import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { HEADER, addSettlementGateway, adminHeaders, insertSettledPayments, majorAmount } from './reconciliation-fixtures.ts';

const LINES = 1_000_000;
const SEEDED = 1_000; // psp1 … psp1000 are Payrail's; the other lines are missing in Payrail
const LINES_PER_CHUNK = 2_000;
// What the import may keep alive in this process's heap and buffers (measured after a full collection) while a ~55 MB
// file of a million lines goes through it: the file, or its parsed lines, would take several times this.
const MEMORY_GROWTH_MAX_BYTES = 32 * 1024 * 1024; // measured: about 8 MiB
const SAMPLE_EVERY_MS = 2_000; // each sample is a full collection: not too often

// PostgreSQL only: an embedded PGlite keeps the whole database in this same process's memory, so the process's
// memory would measure the million rows stored, not the import reading them.
const engines = (await testEngines()).filter((engine) => engine === 'postgres');

// The upload generated as it is sent: neither the test nor the server ever holds the file.
async function* multipartOf(boundary: string, gatewayId: number): AsyncGenerator<Buffer> {
  yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="gatewayId"\r\n\r\n${gatewayId}\r\n`);
  yield Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="million.csv"\r\ncontent-type: text/csv\r\n\r\n${HEADER}`);
  for (let first = 1; first <= LINES; first += LINES_PER_CHUNK) {
    let chunk = '';
    for (let i = first; i < first + LINES_PER_CHUNK && i <= LINES; i += 1) {
      chunk += `psp${i},${majorAmount(i)},EUR,0.20,SETTLED,2026-11-${String(10 + (i % 10)).padStart(2, '0')}\n`;
    }
    yield Buffer.from(chunk);
  }
  yield Buffer.from(`\r\n--${boundary}--\r\n`);
}

// A full collection before each sample, so the sample is what is kept alive, not garbage not collected yet.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

const inUse = () => {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

describe.runIf(engines.length > 0).each(engines)('a 1,000,000-line settlement file on %s', (engine) => {
  let harness: Harness;
  let gatewayId: number;

  beforeAll(async () => {
    harness = await startHarness(engine);
    const merchant = await harness.createMerchant('Million-line merchant');
    gatewayId = await addSettlementGateway(harness, merchant.id);
    await insertSettledPayments(harness.database, {
      merchantId: merchant.id,
      gatewayId,
      count: SEEDED,
      tokenPrefix: 'psp',
      finalizedFrom: '2026-11-12T00:00:00Z',
    });
  });
  afterAll(async () => harness?.close());

  it('is reconciled with the memory it uses bounded', async () => {
    const baseline = inUse();
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, inUse());
    }, SAMPLE_EVERY_MS);
    const boundary = `----payrail${randomBytes(8).toString('hex')}`;
    let response: Awaited<ReturnType<Harness['app']['inject']>>;
    try {
      response = await harness.app.inject({
        method: 'POST',
        url: '/api/admin/v1/reconciliations',
        headers: { ...adminHeaders(harness), 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload: Readable.from(multipartOf(boundary, gatewayId)),
      });
    } finally {
      clearInterval(sampler);
    }
    expect(response.statusCode, response.body).toBe(201);
    const { reconciliation } = response.json();
    expect(reconciliation.line_count).toBe(LINES);
    expect(reconciliation.summary.counts).toMatchObject({ matched: SEEDED, missing_in_payrail: LINES - SEEDED, duplicate_in_file: 0, missing_in_file: 0 });
    expect(peak - baseline).toBeLessThan(MEMORY_GROWTH_MAX_BYTES);
  }, 180_000);
});
