import { and, asc, eq } from 'drizzle-orm';
import type { GatewayRoutingRules } from '../domain/gateway-routing.ts';
import { GatewayRoutingSchema } from '../domain/gateway-routing-rules.ts';
import { jsonColumnCheck } from '../../platform/lib/json-column-check.ts';
import type { Db, DbOrTx } from '../../platform/database.ts';
import type { Environment } from './merchants-repo.ts';
import { gateways } from './schema.ts';

export type GatewayRow = typeof gateways.$inferSelect;

const checkRouting = jsonColumnCheck('gateways.routing', GatewayRoutingSchema);

export async function insertGateway(
  db: Db,
  row: { merchantId: number; environment: Environment; alias: string; settingsSealed: string; routing?: GatewayRoutingRules | null },
): Promise<GatewayRow | null> {
  checkRouting(row.routing);
  const [inserted] = await db.insert(gateways).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

export async function listGateways(db: Db, merchantId: number): Promise<GatewayRow[]> {
  return db.select().from(gateways).where(eq(gateways.merchantId, merchantId)).orderBy(asc(gateways.id));
}

export async function findGateway(db: Db, merchantId: number, gatewayId: number): Promise<GatewayRow | null> {
  const [row] = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.merchantId, merchantId), eq(gateways.id, gatewayId)));
  return row ?? null;
}

export async function findGatewayById(db: DbOrTx, gatewayId: number): Promise<GatewayRow | null> {
  const [row] = await db.select().from(gateways).where(eq(gateways.id, gatewayId));
  return row ?? null;
}

// The merchant's active gateways of the environment, oldest first (the selector's list, the routing pool).
export async function listActiveGateways(db: Db, merchantId: number, environment: Environment): Promise<GatewayRow[]> {
  return db
    .select()
    .from(gateways)
    .where(and(eq(gateways.merchantId, merchantId), eq(gateways.environment, environment), eq(gateways.status, 'active')))
    .orderBy(asc(gateways.id));
}

// The merchant's first active gateway of the environment (without routing and without the customer's choice).
export async function findActiveGateway(db: Db, merchantId: number, environment: Environment): Promise<GatewayRow | null> {
  const [row] = await db
    .select()
    .from(gateways)
    .where(and(eq(gateways.merchantId, merchantId), eq(gateways.environment, environment), eq(gateways.status, 'active')))
    .orderBy(asc(gateways.id))
    .limit(1);
  return row ?? null;
}

export async function updateGateway(
  db: Db,
  merchantId: number,
  gatewayId: number,
  changes: Partial<Pick<GatewayRow, 'settingsSealed' | 'status' | 'alias'>> & { routing?: GatewayRoutingRules | null },
): Promise<GatewayRow | null> {
  checkRouting(changes.routing);
  const [row] = await db
    .update(gateways)
    .set({ ...changes, updatedAt: new Date() })
    .where(and(eq(gateways.merchantId, merchantId), eq(gateways.id, gatewayId)))
    .returning();
  return row ?? null;
}
