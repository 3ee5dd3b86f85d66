import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../../../platform/lib/errors.ts';
import type { ReconciliationDeps } from '../../../flows/reconciliation-import.ts';
import { importSettlementForm, RECONCILIATION_MULTIPART_OPTIONS } from '../../../flows/reconciliation-upload.ts';
import { presentReconciliation } from './present.ts';
import { ErrorEnvelope, ImportForm, ImportRefused, ImportTooLarge, NoColumns, NotFound, ReconciliationEnvelope } from './schemas.ts';

// POST /api/admin/v1/reconciliations in a scope of its own: multipart/form-data is parsed here and nowhere else.
export async function reconciliationImportRoute(app: FastifyInstance, options: { recordImport?: ReconciliationDeps['recordImport'] }): Promise<void> {
  await app.register(fastifyMultipart, RECONCILIATION_MULTIPART_OPTIONS);
  const deps: ReconciliationDeps = { db: app.payrail.database.db, currencies: app.payrail.currencies, recordImport: options.recordImport };

  app.post(
    '/reconciliations',
    {
      schema: {
        operationId: 'adminImportSettlementFile',
        summary: "Import a provider's settlement file and reconcile it (multipart/form-data: gatewayId, then file)",
        description:
          "Operators only (admin key). The CSV is read with the gateway's settlement columns as it streams in (at most 200 MiB, 5,000,000 lines) " +
          'and every line is compared with the payment of its gateway token: matched, missing_in_payrail, amount_mismatch, currency_mismatch, ' +
          "status_mismatch or duplicate_in_file; the gateway's final payments of the file's period that no line names are missing_in_file. " +
          '201 with the new reconciliation; the same file again (same SHA-256, same gateway) answers 200 with the first one and imports nothing. ' +
          'A file that cannot be read answers 422 naming the line, and is listed as failed.',
        tags: ['admin: reconciliation'],
        security: [{ adminKey: [] }],
        consumes: ['multipart/form-data'],
        body: ImportForm,
        response: {
          200: ReconciliationEnvelope,
          201: ReconciliationEnvelope,
          400: ErrorEnvelope,
          401: ErrorEnvelope,
          404: NotFound,
          409: NoColumns,
          413: ImportTooLarge,
          415: ErrorEnvelope,
          422: ImportRefused,
        },
      },
      // The form is read by the handler as it streams (the file straight into the import), not by a validator.
      validatorCompiler: () => (value: unknown) => ({ value }),
    },
    async (request, reply) => {
      if (!request.isMultipart()) throw new ApiError('unsupported_media_type', 415, 'Content-Type must be multipart/form-data');
      const result = await importSettlementForm(request.parts(), deps);
      return reply.code(result.created ? 201 : 200).send({ success: true as const, reconciliation: presentReconciliation(result.reconciliation) });
    },
  );
}
