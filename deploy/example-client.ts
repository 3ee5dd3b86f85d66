// What `npm run deploy:example` does through the balancer: a merchant created with the admin key, Host-to-Host
// payments, and the balancer's connection counts read between steps.
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import type { RunningProcess } from './example-processes.ts';

const COUNTS_TIMEOUT_MS = 5_000;

interface ExampleAnswer {
  merchant?: { sandbox_key?: unknown };
  payment?: { status?: unknown };
  errors?: { code?: unknown }[];
}

// Each call on a connection of its own: the balancer picks a backend per connection, so calls spread over them.
async function callJson(url: string, ca: string, options: { method: string; headers: Record<string, string>; body?: string }) {
  const agent = new Agent({ connect: { ca } });
  try {
    const response = await request(url, { ...options, dispatcher: agent });
    return { status: response.statusCode, body: (await response.body.json()) as ExampleAnswer };
  } finally {
    await agent.close();
  }
}

export async function createMerchant(base: string, ca: string, adminKey: string): Promise<string> {
  const created = await callJson(`${base}/api/admin/v1/merchants`, ca, {
    method: 'POST',
    headers: { authorization: `Bearer ${adminKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Deploy example' }),
  });
  const merchantKey = created.body.merchant?.sandbox_key;
  if (created.status !== 200 || typeof merchantKey !== 'string') throw new Error(`creating the merchant answered ${created.status}`);
  return merchantKey;
}

// `count` payments one after the other; each one's "<HTTP status> <payment status or error code>".
export async function pay(base: string, ca: string, merchantKey: string, body: string, count: number): Promise<string[]> {
  const outcomes: string[] = [];
  for (let index = 0; index < count; index += 1) {
    const paid = await callJson(`${base}/api/v1/payments`, ca, {
      method: 'POST',
      headers: { authorization: `Bearer ${merchantKey}`, 'content-type': 'application/json', 'idempotency-key': randomBytes(16).toString('hex') },
      body,
    });
    outcomes.push(`${paid.status} ${String(paid.body.payment?.status ?? paid.body.errors?.[0]?.code ?? '?')}`);
  }
  return outcomes;
}

export function describeOutcomes(outcomes: string[]): string {
  const approved = outcomes.filter((outcome) => outcome === '200 approved').length;
  const others = outcomes.filter((outcome) => outcome !== '200 approved');
  return `${approved} of ${outcomes.length} answered 200 approved${others.length === 0 ? '' : `; the others: ${others.join(', ')}`}`;
}

// The balancer prints its connection counts on SIGUSR2 (deploy/balancer.ts): by backend, host:port.
export async function connectionCounts(balancer: RunningProcess): Promise<Record<string, number>> {
  const pattern = /connectionsPerBackend":(\{[^}]*\})/g;
  const printed = () => [...balancer.output().matchAll(pattern)].map((match) => match[1]!);
  const before = printed().length;
  balancer.child.kill('SIGUSR2');
  const deadline = Date.now() + COUNTS_TIMEOUT_MS;
  while (printed().length <= before) {
    if (Date.now() > deadline) throw new Error(`the balancer printed no counts:\n${balancer.output()}`);
    await sleep(50);
  }
  return JSON.parse(printed().at(-1)!) as Record<string, number>;
}
