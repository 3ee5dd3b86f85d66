import { createHash } from 'node:crypto';
import { Agent, type Dispatcher } from 'undici';
import { AssetError, providerTlsOf } from '@payrail/adapter-kit';

// Calls to Acme go through a mutual-TLS pool when the gateway's assets carry the adapter's client identity or a CA
// for Acme (the kit's PROVIDER_TLS_FILES); one pool per identity, bounded, the oldest closed when full.
const AGENTS_MAX = 16;
const AGENT_CONNECTIONS_MAX = 32;
const agents = new Map<string, Agent>();

export type AcmeDispatcherChoice = { dispatcher: Dispatcher | undefined } | { problem: string };

export function acmeDispatcherOf(settings: { assets?: Readonly<Record<string, string>> | undefined }, fallback: Dispatcher | undefined): AcmeDispatcherChoice {
  let tls: ReturnType<typeof providerTlsOf>;
  try {
    tls = providerTlsOf(settings);
  } catch (error) {
    if (error instanceof AssetError) return { problem: error.message };
    throw error;
  }
  if (tls === null) return { dispatcher: fallback };
  const digest = createHash('sha256');
  for (const part of [tls.cert, tls.key, ...(tls.ca ?? [])]) digest.update(part ?? '').update('\0');
  const identity = digest.digest('hex');
  let agent = agents.get(identity);
  if (agent === undefined) {
    if (agents.size >= AGENTS_MAX) {
      const [oldest, oldestAgent] = agents.entries().next().value as [string, Agent];
      agents.delete(oldest);
      void oldestAgent.close();
    }
    agent = new Agent({ connections: AGENT_CONNECTIONS_MAX, connect: tls });
    agents.set(identity, agent);
  }
  return { dispatcher: agent };
}
