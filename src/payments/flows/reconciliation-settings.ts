import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { jsonColumnValue } from '../../platform/lib/json-column-check.ts';
import { STATUS_WORD_LENGTH_MAX, SettlementColumnsSchema, type SettlementColumns } from '../domain/settlement-columns.ts';
import { findSettlementGateway, saveSettlementColumns, type SettlementGateway } from '../store/reconciliation-settings-repo.ts';

const storedColumns = jsonColumnValue('gateways.settlement_columns', SettlementColumnsSchema);
const gatewayNotFound = () => new ApiError('not_found', 404, 'no gateway has this id');

export interface GatewaySettlementColumns {
  gateway: Omit<SettlementGateway, 'settlementColumns'>;
  columns: SettlementColumns | null;
}

const present = (gateway: SettlementGateway): GatewaySettlementColumns => {
  const { settlementColumns, ...rest } = gateway;
  return { gateway: rest, columns: settlementColumns === null ? null : storedColumns(settlementColumns) };
};

export async function getSettlementColumns(db: Db, gatewayId: number): Promise<GatewaySettlementColumns> {
  const gateway = await findSettlementGateway(db, gatewayId);
  if (!gateway) throw gatewayNotFound();
  return present(gateway);
}

// The mapping an import reads its file with: the gateway must exist and have one.
export async function settlementColumnsOf(db: Db, gatewayId: number): Promise<SettlementColumns> {
  const { columns } = await getSettlementColumns(db, gatewayId);
  if (columns === null) {
    throw new ApiError(
      'settlement_columns_missing',
      409,
      'the gateway has no settlement columns yet: PUT /api/admin/v1/gateways/{id}/settlement-columns first',
    );
  }
  return columns;
}

// The mapping is validated by the route's schema; two fields naming one column would read one value twice.
export async function setSettlementColumns(db: Db, gatewayId: number, columns: SettlementColumns | null): Promise<GatewaySettlementColumns> {
  if (columns !== null) {
    const named = [columns.gatewayToken, columns.amount, columns.currency, columns.status, columns.date, columns.fee].filter((name) => name !== undefined);
    const twice = named.find((name, index) => named.indexOf(name) !== index);
    if (twice !== undefined) {
      throw new ApiError('invalid_field', 422, `column "${twice}" is mapped twice`, [
        { code: 'invalid_field', field: 'columns', message: `column "${twice}" is mapped twice` },
      ]);
    }
    for (const word of Object.keys(columns.statuses ?? {})) {
      if (word.trim() === '' || word.length > STATUS_WORD_LENGTH_MAX) {
        throw new ApiError('invalid_field', 422, `a status word is 1 to ${STATUS_WORD_LENGTH_MAX} characters`, [
          { code: 'invalid_field', field: 'statuses', message: `a status word is 1 to ${STATUS_WORD_LENGTH_MAX} characters` },
        ]);
      }
    }
  }
  const gateway = await saveSettlementColumns(db, gatewayId, columns);
  if (!gateway) throw gatewayNotFound();
  return present(gateway);
}
