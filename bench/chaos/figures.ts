import { cpus, loadavg } from 'node:os';
import { outsideKillWindows } from './checks.ts';
import type { Client } from './client.ts';
import type { Cluster } from './cluster.ts';
import type { CountingProxy } from './counting-proxy.ts';
import type { LoadFigures, TestCard } from './load.ts';
import type { Receiver } from './receiver.ts';
import type { PaymentView } from './state.ts';

// The figures of a run, printed before the checks (RELIABILITY.md copies them from a full run).

export interface FiguresInput {
  seconds: number;
  settleSeconds: number;
  load: LoadFigures;
  payments: PaymentView[];
  receiver: Receiver;
  proxy: CountingProxy;
  cluster: Cluster;
  client: Client;
  cards: TestCard[];
}

const tally = (values: string[]) => {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([value, count]) => `${value} ${count}`)
    .join(', ');
};

export function printFigures(print: (line: string) => void, input: FiguresInput): void {
  const { load, payments, receiver, proxy, cluster, client } = input;
  const creates = (kind: string) => load.creates.filter((create) => create.kind === kind);
  const acknowledged = (kind: string) => creates(kind).filter((create) => create.token !== null).length;
  const usedCards = new Set(load.creates.map((create) => create.card));
  const startUpKills = cluster.windows.filter((window) => window.duringStartUp).length;
  const failed = receiver.received.filter((notification) => notification.answered !== 200).length;
  const refunds = payments.flatMap((payment) => payment.refunds);
  print('');
  print(`load: ${input.seconds} s, then ${input.settleSeconds} s settling; 1-minute load average ${loadavg()[0]?.toFixed(1)} on ${cpus().length} cores`);
  print(
    `creates: Host-to-Host ${acknowledged('h2h')}/${creates('h2h').length}, hosted ${acknowledged('hosted')}/${creates('hosted').length}, payouts ${acknowledged('payout')}/${creates('payout').length} acknowledged/sent`,
  );
  print(
    `cards used: ${input.cards.filter((card) => usedCards.has(card.pan)).length} of ${input.cards.length}; hosted left to expire ${load.leftToExpire}; 3-D Secure abandoned ${load.abandoned3ds}`,
  );
  print(`create answers: ${tally(load.creates.map((create) => `${create.kind} ${create.answered ?? 'no answer'}${create.code ? ` ${create.code}` : ''}`))}`);
  print(
    `refund requests: ${load.refunds.length} (${tally(load.refunds.map((refund) => `${refund.style} ${refund.answered ?? 'no answer'}${refund.code ? ` ${refund.code}` : ''}`))})`,
  );
  print(`payments by status: ${tally(payments.filter((payment) => payment.operationType !== 'payout').map((payment) => payment.status))}`);
  print(`payouts by status: ${tally(payments.filter((payment) => payment.operationType === 'payout').map((payment) => payment.status))}`);
  print(`refunds by status: ${tally(refunds.map((refund) => refund.status))}`);
  print(
    `kills: ${cluster.kills} kill -9 (${startUpKills} during start-up: ${tally(cluster.windows.map((window) => window.member))}), ${cluster.restarts} restarts`,
  );
  const starts = [...cluster.startDurationsMs].sort((x, y) => x - y);
  const seconds = (ms: number | undefined) => ((ms ?? 0) / 1000).toFixed(1);
  print(`start-ups: ${starts.length}, median ${seconds(starts[Math.floor(starts.length / 2)])} s, longest ${seconds(starts.at(-1))} s`);
  print(
    `notifications received: ${receiver.received.length} (${failed} answered 503 on purpose, ${receiver.unreadable} unreadable; ${tally(receiver.received.map((notification) => notification.type))})`,
  );
  print(`adapter calls at the proxy: ${proxy.calls.length} (${tally(proxy.calls.map((call) => call.method))}); duplicates ${proxy.duplicates().length}`);
  const outside = outsideKillWindows(client.serverErrors, cluster);
  print(
    `requests: ${client.requests}, network failures ${client.networkFailures}; 5xx inside kill windows ${client.serverErrors.length - outside}, outside ${outside}`,
  );
  print(
    `retried operations: ${load.retried} (resets ${load.failures.resets}, timeouts ${load.failures.timeouts}, 5xx ${load.failures.serverErrors}, 409 in use ${load.failures.inUse})`,
  );
}
