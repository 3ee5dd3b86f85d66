import type { AdapterMethod, GatewaySettings } from '../contract/adapter-contract.ts';
import type { AdapterAnswer } from '../domain/adapter-outcome.ts';
import { BrokerLink, type BrokerLinkOptions } from './rabbit-broker-link.ts';
import { endpointDisplayUrl, isRabbitSettingsProblem, rabbitEndpointOf } from './rabbit-endpoint.ts';

// processing_method rabbit: the adapter request over AMQP 0-9-1, one connection per broker and credentials, reused
// by every call. Connections are opened on first use and bounded: past LINKS_MAX, the least recently used one
// without a call in progress is closed; so is one unused for LINK_IDLE_MS (a gateway removed or reconfigured
// must not keep a connection, or its reconnect attempts, alive for good).
const LINKS_MAX = 32;
const LINK_IDLE_MS = 10 * 60 * 1000;

export interface RabbitTransport {
  send(
    gatewaySettings: GatewaySettings['gateway_settings'],
    method: AdapterMethod,
    bodyText: string,
    signature: string | null,
    timeoutMs: number,
  ): Promise<{ answer: AdapterAnswer; url: string }>;
  close(): Promise<void>;
}

export function createRabbitTransport(options: BrokerLinkOptions = {}): RabbitTransport {
  const links = new Map<string, { link: BrokerLink; lastUsedMs: number }>(); // in order of last use, oldest first
  let closed = false;

  function drop(key: string, link: BrokerLink): void {
    links.delete(key);
    void link.close().catch(() => {});
  }

  function linkFor(key: string, create: () => BrokerLink): BrokerLink | null {
    const nowMs = performance.now();
    for (const [idleKey, { link, lastUsedMs }] of links) {
      if (nowMs - lastUsedMs < LINK_IDLE_MS) break; // oldest first: the rest were used later
      if (link.pendingCount === 0 && idleKey !== key) drop(idleKey, link);
    }
    const existing = links.get(key);
    if (existing !== undefined) {
      links.delete(key);
      links.set(key, { link: existing.link, lastUsedMs: nowMs });
      return existing.link;
    }
    if (links.size >= LINKS_MAX) {
      const idle = [...links].find(([, entry]) => entry.link.pendingCount === 0);
      if (idle === undefined) return null;
      drop(idle[0], idle[1].link);
    }
    const link = create();
    links.set(key, { link, lastUsedMs: nowMs });
    return link;
  }

  return {
    async send(gatewaySettings, method, bodyText, signature, timeoutMs) {
      const endpoint = rabbitEndpointOf(gatewaySettings);
      if (isRabbitSettingsProblem(endpoint)) {
        return { answer: { kind: 'network_error', message: `${endpoint.field} ${endpoint.message}` }, url: '' };
      }
      const url = endpointDisplayUrl(endpoint, method);
      if (closed) return { answer: { kind: 'network_error', message: 'the adapter client is closed' }, url };
      const link = linkFor(endpoint.linkKey, () => new BrokerLink(endpoint.address, options));
      if (link === null) {
        return { answer: { kind: 'network_error', message: `${LINKS_MAX} brokers are in use at once: nothing was sent` }, url };
      }
      return { answer: await link.request(endpoint.queue, method, bodyText, signature, timeoutMs), url };
    },
    async close() {
      closed = true;
      const closing = [...links.values()];
      links.clear();
      await Promise.all(closing.map(({ link }) => link.close()));
    },
  };
}
