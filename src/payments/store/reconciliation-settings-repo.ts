import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';
import { jsonColumnCheck } from '../../platform/lib/json-column-check.ts';
import { SettlementColumnsSchema, type SettlementColumns } from '../domain/settlement-columns.ts';
import { gateways } from './schema.ts';

export interface SettlementGateway {
  id: number;
  merchantId: number;
  environment: 'sandbox' | 'production';
  alias: string;
  settlementColumns: unknown; // as stored: the flow checks it against its schema before it reads a file with it
}

const checkColumns = jsonColumnCheck('gateways.settlement_columns', SettlementColumnsSchema);
const selected = {
  id: gateways.id,
  merchantId: gateways.merchantId,
  environment: gateways.environment,
  alias: gateways.alias,
  settlementColumns: gateways.settlementColumns,
};

export async function findSettlementGateway(db: Db, gatewayId: number): Promise<SettlementGateway | null> {
  const [row] = await db.select(selected).from(gateways).where(eq(gateways.id, gatewayId));
  return row ?? null;
}

// null removes the mapping. The gateways table is audited: the change is recorded with its actor by the trigger.
export async function saveSettlementColumns(db: Db, gatewayId: number, columns: SettlementColumns | null): Promise<SettlementGateway | null> {
  checkColumns(columns);
  const [row] = await db
    .update(gateways)
    .set({ settlementColumns: columns === null ? null : sql`${JSON.stringify(columns)}::jsonb`, updatedAt: sql`now()` })
    .where(eq(gateways.id, gatewayId))
    .returning(selected);
  return row ?? null;
}
