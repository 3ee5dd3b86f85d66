import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkGatewayAdapter, readGatewaySettings, type AdapterCheckVerdict, type GatewayCheckReport } from '../../../src/payments/index.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness } from '../../support/harness.ts';
import { freePort } from '../../support/server-harness.ts';

// The operator console's gateway check: the adapter kit's conformance suite against a gateway's own adapter, with the
// gateway's stored settings; and the settings check the console's form uses, answering as the admin API answers.

const engines = await testEngines();
const API_KEY = 'ak_sandbox_do_not_show_me_4711';
const PROVIDER_SECRET = 'provider-client-secret-do-not-show';

function settingsOf(fullLink: string, signKey: string, overrides: Record<string, unknown> = {}) {
  return {
    api_key: API_KEY,
    sign_key: signKey,
    sandbox: true,
    host2host: true,
    validate_signature: true,
    client_secret: PROVIDER_SECRET,
    gateway_settings: { processing_method: 'http_requests', full_link: fullLink, methods: { pay: { response_timeout: 5 } } },
    ...overrides,
  };
}

describe.each(engines)("checking a gateway's adapter on %s", (engine) => {
  let harness: Harness;
  let merchantId: number;
  let sandboxAdapterUrl: string;

  beforeAll(async () => {
    harness = await startHarness(engine);
    // The suite reaches adapters over HTTP: the app's in-process sandbox adapter, on a socket of its own.
    await harness.app.listen({ host: '127.0.0.1', port: 0 });
    sandboxAdapterUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}/sandbox-adapter`;
    merchantId = (await harness.createMerchant()).id;
  });
  afterAll(async () => harness?.close());

  const addGateway = async (alias: string, settings: Record<string, unknown>) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias, environment: 'sandbox', settings },
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().gateway.id as number;
  };
  const verdicts = (report: GatewayCheckReport, verdict: AdapterCheckVerdict) => report.checks.filter((check) => check.verdict === verdict);

  it('passes a sandbox gateway in front of the sandbox adapter, with no secret in the report', async () => {
    const signKey = harness.app.payrail.sandboxAdapterSecret;
    const gatewayId = await addGateway('sandbox-acquirer', settingsOf(sandboxAdapterUrl, signKey));
    const report = await checkGatewayAdapter(harness.app.payrail, gatewayId);
    expect(verdicts(report, 'fail')).toEqual([]);
    expect(report).toMatchObject({ gatewayId, alias: 'sandbox-acquirer', processingMethod: 'http_requests', adapterUrl: sandboxAdapterUrl, passed: true });
    for (const id of ['pay/http-200', 'pay/accepted', 'payout/reply-shape', 'status/reply-shape', 'refund/reply-shape', 'signature/wrong/refused']) {
      expect({ id, verdict: report.checks.find((check) => check.id === id)?.verdict }).toEqual({ id, verdict: 'pass' });
    }
    expect(report.checks.find((check) => check.id === 'callback/pending-card')?.verdict).toBe('unsupported');
    const text = JSON.stringify(report);
    for (const secret of [signKey, API_KEY, PROVIDER_SECRET]) expect(text).not.toContain(secret);
  });

  it('reports failures, without throwing, for a gateway whose adapter port is closed', async () => {
    const closed = `http://127.0.0.1:${await freePort()}/adapter`;
    const gatewayId = await addGateway('closed-port', settingsOf(closed, 'k'.repeat(32)));
    const report = await checkGatewayAdapter(harness.app.payrail, gatewayId);
    expect(report.passed).toBe(false);
    expect(verdicts(report, 'fail').map((check) => check.id)).toEqual(expect.arrayContaining(['pay/http-200', 'pay-malformed/http-200']));
    expect(report.checks.find((check) => check.id === 'pay/http-200')?.message).toContain('ECONNREFUSED');
    expect(report.durationMs).toBeLessThan(30_000);
  });

  it("redacts the gateway's secrets from what its adapter answers", async () => {
    const adapter = await startFakeAdapter();
    try {
      adapter.respond('pay', (request) =>
        reply.json({ result: false, error: `refused ${request.body?.settings?.api_key} with ${request.body?.settings?.client_secret}` }),
      );
      const gatewayId = await addGateway('echoing', settingsOf(adapter.url, 'k'.repeat(32)));
      const report = await checkGatewayAdapter(harness.app.payrail, gatewayId);
      expect(report.checks.find((check) => check.id === 'pay/accepted')).toMatchObject({
        verdict: 'fail',
        message: expect.stringContaining('refused [redacted] with [redacted]'),
      });
      for (const secret of [API_KEY, PROVIDER_SECRET]) expect(JSON.stringify(report)).not.toContain(secret);
    } finally {
      await adapter.close();
    }
  });

  it('ends a check at its deadline, and runs at most two suites at once, counting those past their deadline', async () => {
    const adapter = await startFakeAdapter(); // slow: each suite runs on for seconds past its deadline
    try {
      adapter.respond('pay', reply.sleep(500, reply.json(adapterAnswer.approved('gw-slow'))));
      const gatewayId = await addGateway('slow', settingsOf(adapter.url, 'k'.repeat(32)));
      const hurried = { ...harness.app.payrail, checkDeadlineMs: 200 }; // and each call at most 200 ms: a suite takes over 1 s
      for (let run = 0; run < 2; run += 1) {
        expect(await checkGatewayAdapter(hurried, gatewayId)).toMatchObject({ passed: false, checks: [{ id: 'suite/deadline', verdict: 'fail' }] });
      }
      await expect(checkGatewayAdapter(harness.app.payrail, gatewayId)).rejects.toMatchObject({ statusCode: 429, code: 'rate_limited' });
      const placeFree = () =>
        checkGatewayAdapter(hurried, gatewayId).then(
          () => true,
          (error: { statusCode?: number }) => error.statusCode !== 429,
        );
      await expect.poll(placeFree, { timeout: 20_000, interval: 200 }).toBe(true);
    } finally {
      await adapter.close();
    }
  });

  it('reports a rabbit gateway as unsupported, sending nothing', async () => {
    const rabbit = { processing_method: 'rabbit', rabbit_url: 'amqp://127.0.0.1:5672', rabbit_user: 'payrail', rabbit_password: 'rabbit-secret' };
    const gatewayId = await addGateway('over-rabbit', settingsOf(sandboxAdapterUrl, 'k'.repeat(32), { gateway_settings: rabbit }));
    const report = await checkGatewayAdapter(harness.app.payrail, gatewayId);
    expect(report).toMatchObject({ processingMethod: 'rabbit', adapterUrl: null, passed: false, checks: [{ id: 'transport/rabbit', verdict: 'unsupported' }] });
  });

  it('answers 404 for a gateway that does not exist', async () => {
    await expect(checkGatewayAdapter(harness.app.payrail, 987_654)).rejects.toMatchObject({ statusCode: 404, code: 'not_found' });
  });

  const SIGN_KEY = 's'.repeat(32);
  const http = (gatewaySettings: Record<string, unknown>, top: Record<string, unknown> = {}) => ({
    sign_key: SIGN_KEY,
    gateway_settings: { processing_method: 'http_requests', full_link: 'https://adapter.example/payrail', ...gatewaySettings },
    ...top,
  });
  it.each([
    ['a short sign_key and a sandbox flag of text', http({}, { sign_key: 'short', sandbox: 'yes', brand_id: 'b1' })],
    ['no sign_key', { gateway_settings: { processing_method: 'http_requests', full_link: 'https://adapter.example/payrail' } }],
    ['http_requests without full_link', http({ full_link: undefined })],
    ['a schedule with a hole', http({ status_checker_time_rates: { '1-3': 30, '5-': 60 } })],
    ['a schedule that never ends', http({ status_checker_time_rates: { '1-3': 30 } })],
    ['a timeout past its bound and a method not in the contract', http({ methods: { pay: { response_timeout: 121 }, capture: {} } })],
    ['a rabbit URL carrying a password', http({ processing_method: 'rabbit', rabbit_url: 'amqp://user:pw@broker.example' })],
    ['a provider key too long', http({ brand_id: 'x'.repeat(8193) })],
    ['an asset that is not base64', http({}, { assets: { 'client.p12': '***' } })],
    ['a NUL in a provider key', http({ brand_id: 'brand\u0000one' })],
  ])('the settings check refuses %s as the admin API does', async (_case, settings) => {
    const response = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'refused', environment: 'sandbox', settings },
    });
    expect(response.statusCode).toBe(422);
    const apiErrors = (response.json().errors as { field: string; message: string }[]).map(({ field, message }) => ({ field, message }));
    expect(readGatewaySettings(structuredClone(settings))).toEqual({ ok: false, problems: apiErrors });
  });

  it('the settings check accepts what the admin API stores', () => {
    const reading = readGatewaySettings(http({ status_checker_time_rates: { '1-3': 30, '4-': 60 } }, { brand_id: 'b1' }));
    expect(reading).toMatchObject({ ok: true, settings: { brand_id: 'b1', gateway_settings: { status_checker_time_rates: { '1-3': 30, '4-': 60 } } } });
  });
});
