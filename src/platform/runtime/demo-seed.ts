import { writeFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import { objectAt, textAt } from '../lib/json-path.ts';
import { SANDBOX_TEST_CARD_NUMBERS } from '../lib/sandbox-test-cards.ts';
import { isJsonObject } from '../lib/type-guards.ts';
import { createMerchant } from '../../payments/index.ts';
import { type DemoValues, demoValuesPath } from '../lib/openapi-demo-values.ts';
import { createPaymentCardExample, createPaymentHostedExample } from '../../payments/routes/merchant-api/examples.ts';
import { seedCoreBanking } from './demo-seed-core.ts';

// The demo of a brand-new embedded database: a merchant with one payment in each state the documented examples act
// on, a balance that covers the payout example, a refund and a dispute to read, and a core banking person to sign in
// as. Made through the API itself, so each record is what a merchant would have made; what "Try it out" needs of it
// goes to <data dir>/demo-seed.json, which the OpenAPI document of this server reads (lib/openapi-demo-values.ts).

type Db = Parameters<typeof createMerchant>[0];

// A one-page PDF: the dispute's evidence (documents are recognised by their content).
const EVIDENCE_PDF =
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n';

export interface DemoSeed {
  merchantId: number;
  sandboxKey: string;
  values: DemoValues;
  // Why the demo records could not be made (the merchant and its key stand): e.g. the sandbox gateway cannot reach
  // PAYRAIL_PUBLIC_URL. The server starts all the same; the examples then name records that do not exist.
  failure: string | null;
}

async function call(app: FastifyInstance, method: 'GET' | 'POST', url: string, authorization: string, body?: object): Promise<Record<string, unknown>> {
  const response = await app.inject({ method, url, headers: { authorization: `Bearer ${authorization}` }, ...(body ? { payload: body } : {}) });
  if (response.statusCode !== 200) throw new Error(`demo seed: ${method} ${url} answered ${response.statusCode} ${response.body.slice(0, 300)}`);
  const answer: unknown = response.json();
  if (!isJsonObject(answer)) throw new Error(`demo seed: ${method} ${url} answered ${response.body.slice(0, 300)}`);
  return answer;
}

function tokenIn(answer: unknown, record: string): string {
  const token = textAt(objectAt(answer, record), 'token');
  if (token === undefined) throw new Error(`demo seed: the answer has no ${record}.token`);
  return token;
}

async function createDemoPayment(app: FastifyInstance, key: string, body: object): Promise<string> {
  const created = await call(app, 'POST', '/api/v1/payments', key, body);
  return String(created['token']);
}

function withCard(orderNumber: string, pan: string, extra: object = {}) {
  return { ...createPaymentCardExample, orderNumber, card: { ...createPaymentCardExample.card, pan }, ...extra };
}

async function createDemoDispute(app: FastifyInstance, key: string, paymentToken: string): Promise<string> {
  const boundary = 'payrail-demo-seed';
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const payload =
    field('token', paymentToken) +
    field('description', 'Demo: the customer says the goods never arrived.') +
    field('amount', '300') +
    `--${boundary}\r\nContent-Disposition: form-data; name="document[]"; filename="receipt.pdf"\r\nContent-Type: application/pdf\r\n\r\n${EVIDENCE_PDF}\r\n--${boundary}--\r\n`;
  const response = await app.inject({
    method: 'POST',
    url: '/api/v1/disputes',
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (response.statusCode !== 200) throw new Error(`demo seed: POST /api/v1/disputes answered ${response.statusCode} ${response.body.slice(0, 300)}`);
  return tokenIn(response.json(), 'dispute');
}

export async function seedDemo(app: FastifyInstance, db: Db, masterKey: Buffer, adminKey: string, config: Config): Promise<DemoSeed> {
  const demo = await createMerchant(db, masterKey, 'Demo merchant');
  const values: DemoValues = {};
  let failure: string | null = null;
  try {
    await seedDemoRecords(app, demo.sandboxKey, adminKey, values);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  }
  writeFileSync(demoValuesPath(config.dataDir), `${JSON.stringify(values, null, 2)}\n`, { mode: 0o600 });
  return { merchantId: demo.merchant.id, sandboxKey: demo.sandboxKey, values, failure };
}

async function seedDemoRecords(app: FastifyInstance, key: string, adminKey: string, values: DemoValues): Promise<void> {
  const cards = SANDBOX_TEST_CARD_NUMBERS;
  const approved = await call(app, 'POST', '/api/v1/payments', key, withCard('demo-approved', cards.approved));
  // The sandbox gateway is reached at PAYRAIL_PUBLIC_URL: when it cannot be, stop here rather than wait on each payment.
  const status = textAt(objectAt(approved, 'payment'), 'status');
  if (status !== 'approved')
    throw new Error(`the demo payment is ${String(status)}, not approved: can the sandbox gateway reach ${app.payrail.config.publicUrl}?`);
  values.approvedPaymentToken = String(approved['token']);
  // The payout-ready balance: the payout example's amount and more, beyond the refund and dispute examples.
  await createDemoPayment(app, key, withCard('demo-balance', cards.approved, { amount: 10_000 }));
  values.confirmPaymentToken = await createDemoPayment(app, key, withCard('demo-to-confirm', cards.approved, { needConfirmation: true }));
  values.declinePaymentToken = await createDemoPayment(app, key, withCard('demo-to-decline', cards.approved, { needConfirmation: true }));
  values.cancelPaymentToken = await createDemoPayment(app, key, { ...createPaymentHostedExample, orderNumber: 'demo-to-cancel' });
  values.secureCodePaymentToken = await createDemoPayment(app, key, withCard('demo-secure-code', cards.secure_code_approved));
  values.resendOtpPaymentToken = await createDemoPayment(app, key, withCard('demo-resend-code', cards.secure_code_approved));
  values.nextStepPaymentToken = await createDemoPayment(app, key, withCard('demo-next-step', cards.next_step_approved));
  const refunded = await call(app, 'POST', '/api/v1/refunds', key, { token: values.approvedPaymentToken, amount: 500 });
  values.refundToken = tokenIn(refunded, 'refund');
  values.disputeToken = await createDemoDispute(app, key, values.approvedPaymentToken);
  await seedCoreBanking(app.payrail, (method, url, authorization, body) => call(app, method, url, authorization, body), adminKey);
}
