import { and, eq } from 'drizzle-orm';
import type { Db } from './database.ts';
import { payments } from './schema.ts';

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
