import { randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { FakeAdapter } from './fake-adapter.ts';
import { providerCallbackJwt } from './fake-adapter.ts';
import type { ServerHarness } from './server-harness.ts';

// A production merchant whose gateways are fake adapters, and the provider callbacks such a gateway sends.

export interface GatewayOf {
  alias: string;
  signKey: string;
  settings: Record<string, unknown>;
}

export interface CallbackMerchant {
  id: number;
  productionKey: string;
  sandboxKey: string;
  gateway: GatewayOf; // the first: every payment is processed through it
}

export function gatewaySettings(adapter: FakeAdapter, top: Record<string, unknown> = {}, statusCheckerEnabled = false) {
  return {
    api_key: `ak_live_${randomBytes(8).toString('hex')}`,
    sign_key: randomBytes(16).toString('hex'), // exactly 32 characters
    sandbox: false,
    host2host: true,
    gateway_settings: {
      processing_method: 'http_requests',
      full_link: adapter.url,
      methods: {
        pay: { response_timeout: 2, final_waiting_seconds: 1, enable_status_checker: statusCheckerEnabled },
        status: { response_timeout: 2 },
      },
      status_checker_time_rates: { '1-': 1 },
    },
    ...top,
  };
}

export async function addGateway(server: ServerHarness, merchantId: number, alias: string, settings: Record<string, unknown>): Promise<GatewayOf> {
  const added = await server.call('POST', `/api/admin/v1/merchants/${merchantId}/gateways`, {
    key: server.adminKey,
    body: { alias, environment: 'production', settings },
  });
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return { alias, signKey: settings['sign_key'] as string, settings };
}

export async function callbackMerchant(
  server: ServerHarness,
  adapter: FakeAdapter,
  top: Record<string, unknown> = {},
  statusCheckerEnabled = false,
): Promise<CallbackMerchant> {
  const merchant = await server.createMerchant('Callback merchant');
  const gateway = await addGateway(server, merchant.id, 'acquirer', gatewaySettings(adapter, top, statusCheckerEnabled));
  return { id: merchant.id, productionKey: merchant.productionKey, sandboxKey: merchant.sandboxKey, gateway };
}

export const ORDER = { product: 'Order #77', amount: 1999, currency: 'EUR' };

export async function payWithCard(server: ServerHarness, merchant: CallbackMerchant, orderNumber: string): Promise<{ token: string; status: string }> {
  const created = await server.call('POST', '/api/v1/payments', {
    key: merchant.productionKey,
    body: {
      ...ORDER,
      callbackUrl: 'https://merchant.example/payrail',
      orderNumber,
      card: { pan: '4111 1111 1111 1111', expires: '12/2030', holder: 'Ada Lovelace', cvv: '321' }, // production declines sandbox test cards
      customer: { email: 'ada@example.com', ip: '203.0.113.7' },
    },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  return { token: created.body.token as string, status: created.body.payment.status as string };
}

export async function paymentOf(server: ServerHarness, key: string, token: string) {
  return (await server.call('GET', `/api/v1/payments/${token}`, { key })).body.payment;
}

function callbackPath(token: string): string {
  return `/callbacks/v2/gateway_callbacks/${token}`;
}

export async function signedCallback(signKey: string, merchantKey: string, claims: Record<string, unknown>): Promise<string> {
  return providerCallbackJwt({ signKey, merchantKey, claims: { ...ORDER_CLAIMS, ...claims } as never });
}

const ORDER_CLAIMS = { amount: ORDER.amount, currency: ORDER.currency };

export async function postCallback(server: ServerHarness, token: string, jwt: string) {
  return server.call('POST', callbackPath(token), { body: {}, headers: { authorization: `Bearer ${jwt}` } });
}

// The same signature bytes under another base64url text: the last character's unused low bits set otherwise.
export function reencodeSignature(jwt: string): string {
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  const unusedBits = (signature.length * 6) % 8; // 86 characters carry 64 bytes and 4 spare bits
  if (unusedBits === 0) throw new Error('this signature has no spare bits');
  const last = alphabet.indexOf(signature.at(-1)!);
  const reencoded = `${signature.slice(0, -1)}${alphabet[last ^ 1]}`;
  if (!Buffer.from(reencoded, 'base64url').equals(Buffer.from(signature, 'base64url'))) throw new Error('re-encoding changed the bytes');
  return `${header}.${payload}.${reencoded}`;
}
