import type { FastifyBaseLogger } from 'fastify';
import { endLifetime } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';
import { paymentsPastTheirLifetime } from '../payments/index.ts';

const EXPIRY_BATCH_MAX = 100;
const EXPIRY_BATCHES_PER_PASS_MAX = 20; // a larger backlog continues at the next pass

// Every init or pending payment whose lifetime is over ends expired through the state machine, a pending one after
// one last status check (flows/lifetime-end.ts); the merchant is told. One that failed is tried again next pass.
export async function expireDuePayments(deps: ProcessingDeps, log?: FastifyBaseLogger): Promise<number> {
  const db = deps.context.database.db;
  let expiredCount = 0;
  const seen = new Set<number>(); // a pending payment still waiting on an exchange is found again: asked once a pass
  for (let batch = 0; batch < EXPIRY_BATCHES_PER_PASS_MAX; batch += 1) {
    const due = (await paymentsPastTheirLifetime(db, EXPIRY_BATCH_MAX)).filter((paymentId) => !seen.has(paymentId));
    for (const paymentId of due) {
      seen.add(paymentId);
      const expired = await endLifetime(deps, paymentId, log).catch((error: unknown) => {
        log?.error({ err: error, paymentId }, 'payment expiry failed');
        return false;
      });
      if (expired) expiredCount += 1;
    }
    if (due.length < EXPIRY_BATCH_MAX) break;
  }
  return expiredCount;
}
