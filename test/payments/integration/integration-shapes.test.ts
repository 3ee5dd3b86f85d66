import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { payments } from '../../../src/payments/store/schema.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, validPaymentA, type Harness, type TestMerchant } from '../../support/harness.ts';
import { cardPayment } from '../../support/production-gateway.ts';

const engines = await testEngines();

// Issue 18 item 6: the shapes integrations written for the original engine parse — every create answer's result,
// status, gateway_amount and two_stage_mode, a payout answer's payout, /payout's processing_url and lead_id — and
// gateway settings as spec 2.10 leaves them open (no api_key, a provider's own keys inside a method).
describe.each(engines)('fields the original integrations expect, on %s', (engine) => {
  let harness: Harness;
  let adapter: FakeAdapter;

  beforeAll(async () => {
    harness = await startHarness(engine);
    adapter = await startFakeAdapter();
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
  });

  const gatewaySettings = (methods: Record<string, unknown> = {}) => ({
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'),
    host2host: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: { pay: { response_timeout: 5, final_waiting_seconds: 60 }, status: { response_timeout: 5 }, ...methods },
    },
  });
  const addGateway = (merchantId: number, settings: Record<string, unknown>) =>
    harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchantId}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'acquirer', environment: 'production', settings },
    });
  const merchantWith = async (settings: Record<string, unknown>): Promise<TestMerchant> => {
    const merchant = await harness.createMerchant();
    const added = await addGateway(merchant.id, settings);
    expect(added.statusCode, added.body).toBe(200);
    return merchant;
  };
  const create = (key: string, payload: Record<string, unknown>) => harness.merchantRequest(key, { method: 'POST', url: '/api/v1/payments', payload });

  describe('every create answer', () => {
    let sandboxKey: string;
    let productionKey: string;
    beforeAll(async () => {
      sandboxKey = (await harness.createMerchant()).sandboxKey;
      productionKey = (await merchantWith(gatewaySettings())).productionKey;
    });

    const hostedB = { product: 'TV', amount: 1500, currency: 'USD', callback_url: 'https://merchant.example/cb', customer: { email: 'b@example.com' } };
    const bankAccountC = { ...validPaymentA, bank_account: { bank_name: 'Sber', requisite_type: 'sbp' }, customer: { email: 'c@example.com' } };
    it.each([
      ['A, hosted', () => create(sandboxKey, validPaymentA), 1000, false],
      ['A, hosted two-step', () => create(sandboxKey, { ...validPaymentA, needConfirmation: true }), 1000, true],
      ['B, hosted', () => create(sandboxKey, hostedB), 1500, false],
      ['A, Host-to-Host card', () => create(productionKey, cardPayment('h2h-fields')), 1999, false],
      ['C, Host-to-Host bank account', () => create(productionKey, bankAccountC), 1000, false],
    ])('carries result 0, status 200, gateway_amount and two_stage_mode: variant %s', async (_name, send, gatewayAmount, twoStage) => {
      adapter.respond('pay', reply.json(adapterAnswer.pending('gw-fields')));
      const created = await send();
      expect(created.statusCode, created.body).toBe(200);
      expect(created.json()).toMatchObject({ success: true, result: 0, status: 200, payment: { gateway_amount: gatewayAmount, two_stage_mode: twoStage } });
    });

    it('keeps variant A and B amount a string, as spec 2.2 fixes it', async () => {
      const created = await create(sandboxKey, { ...validPaymentA, amount: 2500 });
      expect(created.json().payment).toEqual({ amount: '2500', gateway_amount: 2500, currency: 'USD', status: 'init', two_stage_mode: false });
    });
  });

  it('answers a payout with payout { token, status }, and sends /payout with processing_url and lead_id', async () => {
    const merchant = await merchantWith(gatewaySettings({ payout: { response_timeout: 5 } }));
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-funding')));
    expect((await create(merchant.productionKey, cardPayment('funding', {}))).json().payment.status).toBe('approved');
    adapter.respond('payout', reply.json(adapterAnswer.approved('gw-payout')));
    const payout = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payouts',
      payload: {
        amount: 700,
        currency: 'EUR',
        orderNumber: 'payout-fields',
        callbackUrl: 'https://merchant.example/payouts',
        bank_account: { requisite_type: 'card' },
        card: { pan: '4111 1111 1111 1111' },
        customer: { email: 'payee@example.com' },
      },
    });
    expect(payout.statusCode, payout.body).toBe(200);
    const { token } = payout.json();
    expect(payout.json().payout).toEqual({ token, status: 'approved' });
    const [sent] = adapter.requestsFor('payout', token);
    const [leadId] = await harness.database.db.select({ id: payments.id }).from(payments).where(eq(payments.token, token));
    expect(sent!.body).toMatchObject({ processing_url: `https://pay.test/payouts/${token}?locale=en`, payment: { token, lead_id: leadId!.id } });
  });

  it('saves a gateway without api_key and pays through it', async () => {
    const { api_key: _unused, ...withoutApiKey } = gatewaySettings();
    const merchant = await merchantWith(withoutApiKey);
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-no-key')));
    const created = await create(merchant.productionKey, cardPayment('no-api-key'));
    expect(created.json().payment.status).toBe('approved');
    const [sent] = adapter.requestsFor('pay', created.json().token);
    expect(sent!.body.settings).not.toHaveProperty('api_key');
  });

  it("passes a provider's own keys inside a method to the adapter, within the provider key bounds", async () => {
    const paramsFields = { phone: { required: true }, document: ['passport', 'id_card'] };
    const merchant = await merchantWith(gatewaySettings({ pay: { response_timeout: 5, final_waiting_seconds: 60, params_fields: paramsFields } }));
    adapter.respond('pay', reply.json(adapterAnswer.approved('gw-method-keys')));
    const created = await create(merchant.productionKey, cardPayment('method-keys'));
    const [sent] = adapter.requestsFor('pay', created.json().token);
    expect(sent!.body.settings.gateway_settings.methods.pay).toMatchObject({ response_timeout: 5, params_fields: paramsFields });

    const tooLong = gatewaySettings({ pay: { notes: 'x'.repeat(8193) } });
    const refused = await addGateway((await harness.createMerchant()).id, tooLong);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors[0].field).toBe('settings.gateway_settings.methods.pay.notes');
  });
});
