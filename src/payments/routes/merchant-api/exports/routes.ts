import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { sendCsvDownload } from '../../../../platform/lib/csv-download.ts';
import { EXPORT_KINDS, exportLines } from '../../../flows/exports.ts';
import { CsvResponse, ErrorEnvelope, ExportQuery, RangeRefused, operationIdOf } from './schemas.ts';

// GET /api/v1/exports/{payments|payouts|refunds|ledger-entries}.csv: the key's merchant and environment only.
export async function exportRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  for (const kind of EXPORT_KINDS) {
    routes.get(
      `/api/v1/exports/${kind}.csv`,
      {
        schema: {
          operationId: operationIdOf('export', kind),
          summary: `Export the ${kind.replace('-', ' ')} of a period as CSV`,
          description:
            'Everything of the kind created in [from, to) (at most 366 days) for the merchant and environment of the key, oldest first, streamed in ' +
            'bounded memory. Payments and payouts: token, created_at, finalized_at, status, amounts (minor units), order number, product, card mask, ' +
            'decline reason, gateway; refunds: token, payment_token, status, amount; ledger entries: transaction, kind, account, signed amount and the ' +
            'payment, refund or dispute it belongs to.',
          tags: ['exports'],
          security: [{ merchantKey: [] }],
          querystring: ExportQuery,
          response: { 200: CsvResponse, 401: ErrorEnvelope, 403: ErrorEnvelope, 422: RangeRefused, 429: ErrorEnvelope },
        },
      },
      async (request, reply) => {
        const { merchantId, environment } = request.merchant!;
        const lines = exportLines(db, { kind, from: request.query.from, to: request.query.to, merchantId, environment });
        return sendCsvDownload(reply, `payrail-${kind}-${environment}.csv`, lines);
      },
    );
  }
}
