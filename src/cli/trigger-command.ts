import { randomBytes } from 'node:crypto';
import type { Config } from '../platform/config.ts';
import { SANDBOX_TEST_CARD_NUMBERS as CARDS } from '../platform/lib/sandbox-test-cards.ts';
import { CliError, EXIT_CODES } from './cli-error.ts';
import { merchantServer, readSandboxKey, type MerchantServer } from './listen-transport.ts';

// payrail trigger <type>: makes the sandbox produce one event through the merchant API, with the sandbox test
// cards, so `payrail listen` has something to forward. Payments go to a callbackUrl nobody answers: the event is
// what matters, and it is in the events API and the stream whatever its delivery.

const CALLBACK_URL = 'https://merchant.example/payrail-trigger';
const AMOUNT_MINOR = 1000;
const CURRENCY = 'USD';

type Scenario = (server: MerchantServer) => Promise<string>; // the token of the payment the event is about

const SCENARIOS: Readonly<Record<string, Scenario>> = {
  'payment.approved': (server) => pay(server, CARDS.approved, 'approved'),
  'payment.declined': (server) => pay(server, CARDS.declined, 'declined'),
  'refund.approved': async (server) => {
    const token = await pay(server, CARDS.approved, 'approved');
    const refunded = await callJson(server, 'POST', '/api/v1/refunds', { token });
    expectStatus(refunded, 'refund', ['approved', 'pending']);
    return token;
  },
  'payout.approved': async (server) => {
    await pay(server, CARDS.approved, 'approved', AMOUNT_MINOR * 2); // the payout is paid from what this brings in
    const payout = await callJson(server, 'POST', '/api/v1/payouts', {
      amount: AMOUNT_MINOR / 2,
      currency: CURRENCY,
      orderNumber: orderNumber(),
      callbackUrl: CALLBACK_URL,
      bank_account: { requisite_type: 'card' },
      card: { pan: CARDS.payout_approved },
      customer: { email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper' },
    });
    expectStatus(payout, 'payout', ['approved', 'pending']);
    return String(payout['token']);
  },
  'dispute.opened': async (server) => {
    const token = await pay(server, CARDS.approved, 'approved');
    const boundary = `payrail-trigger-${randomBytes(8).toString('hex')}`;
    const fields = { token, description: 'payrail trigger: a test dispute', amount: String(AMOUNT_MINOR / 2) };
    const text = `${Object.entries(fields)
      .map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`)
      .join('')}--${boundary}--\r\n`;
    const answer = await server.call('POST', '/api/v1/disputes', { contentType: `multipart/form-data; boundary=${boundary}`, text });
    refuseFailure('POST /api/v1/disputes', answer);
    return token;
  },
};

const TRIGGER_EVENT_TYPES = Object.keys(SCENARIOS);

export async function runTriggerCommand(
  config: Config,
  type: string | undefined,
  options: { key?: string | undefined; url?: string | undefined },
  print: (line: string) => void,
): Promise<void> {
  const scenario = type === undefined ? undefined : SCENARIOS[type];
  if (type === undefined || scenario === undefined || !Object.hasOwn(SCENARIOS, type)) {
    throw new CliError(`${type === undefined ? 'an event type is missing' : `unknown event type "${type}"`}; supported: ${TRIGGER_EVENT_TYPES.join(', ')}`);
  }
  const server = merchantServer(config, options.url, readSandboxKey(options.key));
  try {
    const token = await scenario(server);
    print(`${type}  ${token}`);
    print(`Triggered: expect the event ${type} of payment ${token} (payrail listen forwards it; GET /api/v1/events?type=${type} lists it)`);
  } finally {
    server.close();
  }
}

function orderNumber(): string {
  return `trigger-${randomBytes(6).toString('hex')}`;
}

async function pay(server: MerchantServer, pan: string, expected: string, amount = AMOUNT_MINOR): Promise<string> {
  const created = await callJson(server, 'POST', '/api/v1/payments', {
    product: 'payrail trigger',
    amount,
    currency: CURRENCY,
    callbackUrl: CALLBACK_URL,
    orderNumber: orderNumber(),
    card: { pan, expires: '12/2030', holder: 'Ada Lovelace', cvv: '123' },
    customer: { email: 'ada@example.com', ip: '203.0.113.7' },
  });
  expectStatus(created, 'payment', [expected]);
  return String(created['token']);
}

async function callJson(server: MerchantServer, method: 'POST', path: string, body: unknown): Promise<Record<string, unknown>> {
  const answer = await server.call(method, path, { contentType: 'application/json', text: JSON.stringify(body) });
  return refuseFailure(`${method} ${path}`, answer);
}

function refuseFailure(what: string, answer: { status: number; json: Record<string, unknown> | null }): Record<string, unknown> {
  if (answer.status === 200 && answer.json !== null) return answer.json;
  const errors = Array.isArray(answer.json?.['errors']) ? (answer.json['errors'] as { code?: string; message?: string }[]) : [];
  const reason = errors.map((error) => `${error.code}: ${error.message}`).join('; ') || 'no error envelope';
  throw new CliError(`${what} failed with HTTP ${answer.status}: ${reason}`, EXIT_CODES.failed);
}

function expectStatus(answer: Record<string, unknown>, field: string, statuses: string[]): void {
  const status = (answer[field] as { status?: string } | undefined)?.status;
  if (status === undefined || !statuses.includes(status)) {
    throw new CliError(`the sandbox answered ${field} status ${String(status)}, not ${statuses.join(' or ')}`, EXIT_CODES.failed);
  }
}
