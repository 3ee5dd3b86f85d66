import { and, eq, isNull } from 'drizzle-orm';
import type { RoutingDecision } from '../domain/gateway-routing.ts';
import type { Db } from '../../platform/database.ts';
import { insertPaymentLogs, type PaymentLogInput } from './payment-logs-repo.ts';
import { payments } from './schema.ts';
import { assertPaymentJson } from './json-columns.ts';

// The customer's choice of gateway on the provider-selection page, kept only while the payment is init:
// once its card or bank request was sent, the gateway it went through is final.
export async function recordChosenGateway(db: Db, paymentId: number, gatewayId: number | null): Promise<boolean> {
  const rows = await db
    .update(payments)
    .set({ chosenGatewayId: gatewayId, updatedAt: new Date() })
    .where(and(eq(payments.id, paymentId), eq(payments.status, 'init')))
    .returning({ id: payments.id });
  return rows.length > 0;
}

export interface GatewaySwitch {
  fromGatewayId: number;
  to: { gatewayId: number; alias: string };
  decision: RoutingDecision; // with the failed attempt added
  logs: readonly PaymentLogInput[]; // the failed attempt's request and answer, redacted
}

// Failover: a pending payment whose /pay provably never reached its gateway moves to the next one, in one
// statement conditional on nothing having happened since (still pending, still on that gateway, no provider
// token): a callback or status check that got there first wins and the failover stops. False: not switched.
export async function switchRoutedGateway(db: Db, paymentId: number, change: GatewaySwitch): Promise<boolean> {
  assertPaymentJson({ routingDecision: change.decision });
  return db.transaction(async (tx) => {
    const rows = await tx
      .update(payments)
      .set({ gatewayId: change.to.gatewayId, gatewayAlias: change.to.alias, routingDecision: change.decision, updatedAt: new Date() })
      .where(and(eq(payments.id, paymentId), eq(payments.status, 'pending'), eq(payments.gatewayId, change.fromGatewayId), isNull(payments.gatewayToken)))
      .returning({ id: payments.id });
    if (rows.length === 0) return false;
    await insertPaymentLogs(tx, paymentId, change.logs);
    return true;
  });
}
