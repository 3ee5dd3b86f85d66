import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();

describe.each(engines)('request ids in the logs on %s', (engine) => {
  let harness: Harness;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const logStream = { write: (line: string) => void lines.push(JSON.parse(line)) };
    harness = await startHarness(engine, { PAYRAIL_LOG_LEVEL: 'info' }, { logger: true, logStream });
  });
  afterAll(async () => {
    await harness?.close();
  });

  const linesOf = (requestId: string) => lines.filter((line) => line['reqId'] === requestId);

  it.each([
    ['a matched route', '/health', 200],
    ['an unknown route', '/no-such-route', 404],
    ['a merchant API call refused', '/api/v1/payments', 401],
  ])('tags every log line of %s with the id the client sent, and returns it', async (_case, url, statusCode) => {
    const requestId = `client-${statusCode}.req:42`;
    lines.length = 0;
    const response = await harness.app.inject({ method: 'GET', url, headers: { 'x-request-id': requestId } });
    expect(response.statusCode).toBe(statusCode);
    expect(response.headers['x-request-id']).toBe(requestId);
    expect(linesOf(requestId).length).toBeGreaterThanOrEqual(2); // incoming request, request completed
    expect(lines.filter((line) => line['reqId'] !== requestId)).toEqual([]);
  });

  it('replaces a malformed client id with its own, in the logs and the answer alike', async () => {
    lines.length = 0;
    const response = await harness.app.inject({ method: 'GET', url: '/health', headers: { 'x-request-id': 'two words<>' } });
    const ownId = String(response.headers['x-request-id']);
    expect(ownId).toMatch(/^[0-9a-f-]{36}$/);
    expect(linesOf(ownId).length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(lines)).not.toContain('two words');
  });
});
