import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Static } from 'typebox';
import { listProfileBankAccounts } from '../../flows/bank-account-list.ts';
import { createBankAccount, deleteBankAccount, type NewBankAccountRequest } from '../../flows/bank-accounts.ts';
import { CoreApiError } from '../../../platform/lib/core-errors.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';
import { actingProfile } from '../auth.ts';
import { presentBankAccount } from './present.ts';
import {
  ActingForbidden,
  BankAccountNotFound,
  BankAccountRefused,
  CoreErrorEnvelope,
  DeleteBankAccountBody,
  ListForbidden,
  ListQuery,
  ListResponse,
  NewBankAccountBody,
  NewBankAccountResponse,
  SegregatedQuery,
  SuccessResponse,
} from './schemas.ts';

const security = [{ sessionToken: [] }];
const tags = ['core banking: bank accounts'];
const errors = { 401: CoreErrorEnvelope, 403: ActingForbidden, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope };
const FILTER_KEY = /^filters\[([a-z_]{1,32})\]$/;

// Bank accounts and beneficiaries of the signed-in person, or of a business account they act on (spec 4:
// segregated_account_id). Another profile's record is answered like a missing one.
export async function bankAccountRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const deps = { db: app.payrail.database.db, currencies: app.payrail.currencies };
  const actingAs = actingProfile(app);

  routes.post(
    '/api/v1/bank_accounts/new',
    {
      schema: {
        operationId: 'coreCreateBankAccount',
        summary: 'Add a bank account or beneficiary (spec 2.6); it is pending until an operator approves it',
        description:
          'Needs a live session (header session-token); segregated_account_id adds it to a business account you are a member of. Checks an IBAN (checksum and country format) when provider is iban or when value, account_number or details.corresponding_iban is one; SWIFT/BIC codes; a UK sort code (6 digits) with a UK account number (8 digits); details.beneficiary_email; the currency. A card account takes a mask, never a full card number. Errors: 401 session, 403 segregated_account_id not yours, 422 a field (field names it) or too_many_bank_accounts.',
        tags,
        security,
        querystring: SegregatedQuery,
        body: NewBankAccountBody,
        response: { 200: NewBankAccountResponse, ...errors, 422: BankAccountRefused },
      },
      preHandler: actingAs,
    },
    async (request) => {
      const record = await createBankAccount(deps, request.actingProfileId!, newRequestOf(request.body));
      return { success: true as const, status: 200 as const, message: 'the bank account was added and awaits approval', id: record.id };
    },
  );

  routes.post(
    '/api/v1/bank_accounts/delete',
    {
      schema: {
        operationId: 'coreDeleteBankAccount',
        summary: 'Delete (close) a bank account',
        description:
          'Needs a live session (header session-token). The record becomes closed: hidden from the list (unless status=closed is asked for) and kept for the transfers that name it. account_number and provider, when given, must match the record. Deleting a closed record again succeeds. Errors: 401, 403 segregated_account_id, 404 no such record of this profile.',
        tags,
        security,
        querystring: SegregatedQuery,
        body: DeleteBankAccountBody,
        response: { 200: SuccessResponse, ...errors, 404: BankAccountNotFound },
      },
      preHandler: actingAs,
    },
    async (request) => {
      const { id, account_number, provider } = request.body;
      await deleteBankAccount(deps.db, request.actingProfileId!, { id, accountNumber: account_number, provider });
      return { success: true as const, status: 200 as const };
    },
  );

  routes.get(
    '/api/v1/bank_accounts/list',
    {
      schema: {
        operationId: 'coreListBankAccounts',
        summary: "List the profile's bank accounts under spec 4's filters, 20 a page",
        description:
          'Needs a live session (header session-token). Filters are query parameters, also accepted as filters[name]=value. Closed records are left out unless status=closed. Boolean flags take true or false. Errors: 401, 403 segregated_account_id or profile_id not yours, 422 an invalid filter or page beyond 1000.',
        tags,
        security,
        querystring: ListQuery,
        response: { 200: ListResponse, ...errors, 403: ListForbidden },
      },
      preValidation: async (request) => hoistFilters(request.query),
      preHandler: actingAs,
    },
    async (request) => {
      const { segregated_account_id: _acting, profile_id, page, ...filters } = request.query;
      const listed = { userId: request.coreSession!.userId, actingProfileId: request.actingProfileId!, profileId: profile_id };
      const listing = await listProfileBankAccounts(deps, listed, {
        page,
        provider: filters.provider,
        accountNumberCompass: filters.account_number_compass,
        onlyCheck: filters.only_check,
        ownersCardAccounts: filters.owners_card_accounts,
        cardAccounts: filters.card_accounts,
        id: filters.id,
        idOrToken: filters.id_or_token,
        value: filters.value,
        currency: filters.currency,
        status: filters.status,
        verified: filters.verified,
        withWallet: filters.with_wallet,
        withCards: filters.with_cards,
        outerId: filters.outer_id,
      });
      return { success: true as const, status: 200 as const, object: listing.onlyCheck ? listing.exists : listing.records.map(presentBankAccount) };
    },
  );
}

// filters[provider]=iban → provider=iban (spec 4 calls the query "filters (object)").
function hoistFilters(query: unknown): void {
  if (!isJsonObject(query)) return;
  for (const key of Object.keys(query)) {
    const name = FILTER_KEY.exec(key)?.[1];
    if (name === undefined) continue;
    if (Object.hasOwn(query, name)) {
      const message = `is given both as ${name} and as ${key}`;
      throw new CoreApiError('duplicate_field', 422, `${name} ${message}`, [{ code: 'duplicate_field', kind: 'validation', field: name, message }]);
    }
    query[name] = query[key];
    delete query[key];
  }
}

const text = (value: string | null | undefined) => value ?? undefined;

function newRequestOf(body: Static<typeof NewBankAccountBody>): NewBankAccountRequest {
  return {
    value: body.value,
    currency: body.currency,
    provider: body.provider ?? 'default',
    swiftCode: text(body.swift_code),
    ukSortCode: text(body.uk_sort_code),
    ukAccountNumber: text(body.uk_account_number),
    accountNumber: text(body.account_number),
    accountHolder: text(body.account_holder),
    bankName: text(body.bank_name),
    bankAddress: text(body.bank_address),
    recipientName: text(body.recipient_name),
    recipientAddress: text(body.recipient_address),
    refCode: text(body.ref_code),
    paymentSystem: text(body.paymentSystem),
    details: body.details,
  };
}
