import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { isApproved } from '../../../domain/bank-account-status.ts';
import { listBankAccountsForReview, reviewBankAccount } from '../../../flows/bank-account-review.ts';
import type { BankAccountRow } from '../../../store/bank-accounts-repo.ts';
import {
  ActionNotApplicable,
  ActionRefused,
  BankAccountNotFound,
  ErrorEnvelope,
  ReviewActionBody,
  ReviewActionParams,
  ReviewEnvelope,
  ReviewListEnvelope,
  ReviewListQuery,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: bank accounts'];

function presentForOperator(record: BankAccountRow) {
  return {
    id: record.id,
    profile_id: record.profileId,
    token: record.token,
    value: record.value,
    currency: record.currency,
    provider: record.provider,
    status: record.status,
    approved: isApproved(record.status),
    verified: record.verified,
    swift_code: record.swiftCode,
    uk_sort_code: record.ukSortCode,
    uk_account_number: record.ukAccountNumber,
    account_number: record.accountNumber,
    account_holder: record.accountHolder,
    bank_name: record.bankName,
    outer_id: record.outerId,
    details: record.details,
    created_at: record.createdAt.toISOString(),
    updated_at: record.updatedAt.toISOString(),
  };
}

// Operators review the bank accounts clients add: new ones wait in status pending (domain/bank-account-status.ts).
export async function bankAccountAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.payrail.database;

  routes.get(
    '/bank-accounts',
    {
      schema: {
        operationId: 'adminListBankAccounts',
        summary: "List clients' bank accounts, oldest first (status=pending: the review queue)",
        description: 'Operators only (admin key). Every field of each record, closed ones included; status and profile_id narrow the list, 50 records a page.',
        tags,
        security,
        querystring: ReviewListQuery,
        response: { 200: ReviewListEnvelope, 401: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope },
      },
    },
    async (request) => {
      const { status, profile_id, page } = request.query;
      const rows = await listBankAccountsForReview(db, { status: status ?? null, profileId: profile_id ?? null, page });
      return { success: true as const, page, bank_accounts: rows.map(presentForOperator) };
    },
  );

  routes.post(
    '/bank-accounts/:id/:action',
    {
      schema: {
        operationId: 'adminReviewBankAccount',
        summary: 'Approve, decline, close, verify a bank account, or mark it sent to its provider (request)',
        description:
          'Operators only (admin key). action is request, approve, decline, close or verify; the body is optional and only approve takes ' +
          "outer_id (the record's id at an external provider). An action that does not apply to the current status answers 409 invalid_state " +
          'and changes nothing.',
        tags,
        security,
        params: ReviewActionParams,
        body: ReviewActionBody,
        response: { 200: ReviewEnvelope, 401: ErrorEnvelope, 404: BankAccountNotFound, 409: ActionNotApplicable, 422: ActionRefused, 429: ErrorEnvelope },
      },
      preValidation: async (request) => {
        request.body ??= {}; // the body is optional: only approve takes a field
      },
    },
    async (request) => {
      const changed = await reviewBankAccount(db, request.params.id, request.params.action, { outerId: request.body.outer_id });
      return { success: true as const, bank_account: presentForOperator(changed) };
    },
  );
}
