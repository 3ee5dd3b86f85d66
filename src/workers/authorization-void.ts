import type { FastifyBaseLogger } from 'fastify';
import { voidExpiredAuthorization } from '../payments/index.ts';
import type { ProcessingDeps } from '../payments/index.ts';
import { authorizationsPastTheirHold } from '../payments/index.ts';

// Each adapter call is bounded by the gateway's decline_request response_timeout; the batch's calls run side by side.
const AUTHORIZATION_VOID_BATCH_MAX = 20;

// One bounded batch of two-step authorizations past authorized_until, voided (flows/authorization-void.ts). True when
// the batch came back full and every payment in it was handled: more may be waiting.
export async function voidDueAuthorizations(deps: ProcessingDeps, log: FastifyBaseLogger): Promise<boolean> {
  const due = await authorizationsPastTheirHold(deps.context.database.db, AUTHORIZATION_VOID_BATCH_MAX);
  const handled = await Promise.all(
    due.map((paymentId) =>
      voidExpiredAuthorization(deps, paymentId).then(
        () => true,
        (error: unknown) => {
          // left authorized and due: the next pass tries it again
          log.error({ err: error, paymentId, topic: 'authorization_void' }, 'authorization void failed');
          return false;
        },
      ),
    ),
  );
  return due.length === AUTHORIZATION_VOID_BATCH_MAX && handled.every(Boolean);
}
