import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance } from 'fastify';
import { importSettlementForm, RECONCILIATION_MULTIPART_OPTIONS } from '../../../payments/index.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { recordAuditEvent } from '../../flows/audit-log.ts';
import { requireOperatorAction } from './guard.ts';

// POST /ops/reconciliations, multipart/form-data parsed in this scope only: the admin API's import (gatewayId, then the
// file, read as it streams in). The CSRF token comes in the query: the frame checks it before the body is read, and
// the role is checked before a byte of the file is read.
export async function reconciliationUpload(app: FastifyInstance): Promise<void> {
  await app.register(fastifyMultipart, RECONCILIATION_MULTIPART_OPTIONS);
  const deps = { db: app.payrail.database.db, currencies: app.payrail.currencies, recordImport: recordAuditEvent };

  app.post('/reconciliations', async (request, reply) => {
    requireOperatorAction(request, 'reconciliation');
    if (!request.isMultipart()) throw new ApiError('unsupported_media_type', 415, 'send the file as multipart/form-data');
    const result = await importSettlementForm(request.parts(), deps);
    return reply.redirect(`/ops/reconciliations/${result.reconciliation.token}`, 303);
  });
}
