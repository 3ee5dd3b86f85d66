import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { sendCsvDownload } from '../../../../platform/lib/csv-download.ts';
import { findReconciliationItems, findReconciliations, getReconciliation, reconciliationReportLines } from '../../../flows/reconciliation-report.ts';
import { getSettlementColumns, setSettlementColumns, type GatewaySettlementColumns } from '../../../flows/reconciliation-settings.ts';
import { presentItem, presentReconciliation } from './present.ts';
import {
  ColumnsRefused,
  ErrorEnvelope,
  GatewayParams,
  ItemsEnvelope,
  ItemsQuery,
  ListQuery,
  ListRefused,
  NotFound,
  ReconciliationEnvelope,
  ReconciliationListEnvelope,
  ReportQuery,
  SettlementColumnsBody,
  SettlementColumnsEnvelope,
  TokenParams,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: reconciliation'];

const presentColumns = ({ gateway, columns }: GatewaySettlementColumns) => ({
  success: true as const,
  gateway: { id: gateway.id, merchant_id: gateway.merchantId, environment: gateway.environment, alias: gateway.alias, settlement_columns: columns },
});

// Settlement-file reconciliation (issue 23): the mapping saved with a gateway, the imports and their reports. The
// import itself (multipart) has a scope of its own: import-route.ts.
export async function reconciliationAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  routes.get(
    '/gateways/:id/settlement-columns',
    {
      schema: {
        operationId: 'adminGetSettlementColumns',
        summary: "A gateway's settlement-file column mapping",
        description: 'Operators only (admin key). null until set: an import for the gateway is refused (409 settlement_columns_missing) until then.',
        tags,
        security,
        params: GatewayParams,
        response: { 200: SettlementColumnsEnvelope, 401: ErrorEnvelope, 404: NotFound },
      },
    },
    async (request) => presentColumns(await getSettlementColumns(db, request.params.id)),
  );

  routes.put(
    '/gateways/:id/settlement-columns',
    {
      schema: {
        operationId: 'adminSetSettlementColumns',
        summary: "Save a gateway's settlement-file column mapping",
        description:
          "Operators only (admin key). Which column of the provider's CSV holds the gateway token, amount, currency, status, date and (optionally) fee; " +
          'how amounts are written (major 10.50 or minor 1050); the field separator; and which status words mean approved, declined or refunded. ' +
          'Replaced whole; null removes it. Recorded in the audit log as a gateway change.',
        tags,
        security,
        params: GatewayParams,
        body: SettlementColumnsBody,
        response: { 200: SettlementColumnsEnvelope, 401: ErrorEnvelope, 404: NotFound, 422: ColumnsRefused },
      },
    },
    async (request) => presentColumns(await setSettlementColumns(db, request.params.id, request.body.columns)),
  );

  routes.get(
    '/reconciliations',
    {
      schema: {
        operationId: 'adminListReconciliations',
        summary: 'List settlement-file imports, newest first',
        description: 'Operators only (admin key). Of every gateway, or one (gatewayId); limit at most 100, next_cursor for the next page.',
        tags,
        security,
        querystring: ListQuery,
        response: { 200: ReconciliationListEnvelope, 401: ErrorEnvelope, 422: ListRefused },
      },
    },
    async (request) => {
      const { gatewayId, cursor, limit } = request.query;
      const found = await findReconciliations(db, { gatewayId, cursor, limit });
      return { success: true as const, reconciliations: found.reconciliations.map(presentReconciliation), next_cursor: found.nextCursor };
    },
  );

  routes.get(
    '/reconciliations/:token',
    {
      schema: {
        operationId: 'adminGetReconciliation',
        summary: 'A reconciliation and its summary',
        description: 'Operators only (admin key). Counts per outcome, and per currency the provider’s fees against the commissions Payrail charged.',
        tags,
        security,
        params: TokenParams,
        response: { 200: ReconciliationEnvelope, 401: ErrorEnvelope, 404: NotFound },
      },
    },
    async (request) => ({ success: true as const, reconciliation: presentReconciliation(await getReconciliation(db, request.params.token)) }),
  );

  routes.get(
    '/reconciliations/:token/items',
    {
      schema: {
        operationId: 'adminListReconciliationItems',
        summary: "A completed reconciliation's items, in file order",
        description:
          "Operators only (admin key). The file's lines, then the payments the file missed (missing_in_file), of one outcome or all; limit at most " +
          '100, next_cursor for the next page. A reconciliation that is processing or failed has none (409 invalid_state).',
        tags,
        security,
        params: TokenParams,
        querystring: ItemsQuery,
        response: { 200: ItemsEnvelope, 401: ErrorEnvelope, 404: NotFound, 409: ErrorEnvelope, 422: ListRefused },
      },
    },
    async (request) => {
      const found = await findReconciliationItems(db, request.params.token, request.query);
      return { success: true as const, items: found.items.map(presentItem), next_cursor: found.nextCursor };
    },
  );

  routes.get(
    '/reconciliations/:token/report.csv',
    {
      schema: {
        operationId: 'adminReconciliationReportCsv',
        summary: 'The report as CSV (every item, or one outcome)',
        description:
          'Operators only (admin key). Streamed (any size, in bounded memory); text fields a spreadsheet would read as formulas are neutralised. ' +
          'Columns: item, line, outcome, gateway_token, file_amount_minor, file_currency, file_fee_minor, file_status, file_date, payment_token, ' +
          'payrail_amount_minor, payrail_currency, payrail_status.',
        tags,
        security,
        params: TokenParams,
        querystring: ReportQuery,
        response: {
          200: { description: 'the report as CSV (RFC 4180, CRLF)', content: { 'text/csv': { schema: Type.String() } } },
          401: ErrorEnvelope,
          404: NotFound,
          409: ErrorEnvelope,
        },
      },
    },
    async (request, reply) => {
      const lines = await reconciliationReportLines(db, request.params.token, request.query.outcome ?? null);
      return sendCsvDownload(reply, `payrail-reconciliation-${request.params.token}.csv`, lines);
    },
  );
}
