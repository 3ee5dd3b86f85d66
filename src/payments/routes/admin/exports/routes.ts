import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsvDownload } from '../../../../platform/lib/csv-download.ts';
import { EXPORT_KINDS, exportLines } from '../../../flows/exports.ts';
import { AdminExportQuery, CsvResponse, ErrorEnvelope, RangeRefused } from './schemas.ts';

// GET /api/admin/v1/exports/{payments|payouts|refunds|ledger-entries}.csv: the merchant exports across merchants.
export async function exportAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  for (const kind of EXPORT_KINDS) {
    routes.get(
      `/exports/${kind}.csv`,
      {
        schema: {
          operationId: `adminExport${kind.replace(/(^|-)([a-z])/g, (_match, _dash, letter: string) => letter.toUpperCase())}Csv`,
          summary: `Export the ${kind.replace('-', ' ')} of every merchant as CSV`,
          description:
            `Operators only (admin key). As GET /api/v1/exports/${kind}.csv, for every merchant (or merchantId) and both environments (or ` +
            'environment), with merchant_id and environment as the first columns. [from, to) at most 366 days; streamed in bounded memory.',
          tags: ['admin: exports'],
          security: [{ adminKey: [] }],
          querystring: AdminExportQuery,
          response: { 200: CsvResponse, 401: ErrorEnvelope, 422: RangeRefused },
        },
      },
      async (request, reply) => {
        const { from, to, merchantId, environment } = request.query;
        const lines = exportLines(db, { kind, from, to, merchantId: merchantId ?? null, environment: environment ?? null });
        return sendCsvDownload(reply, `payrail-${kind}-all.csv`, lines);
      },
    );
  }
}
