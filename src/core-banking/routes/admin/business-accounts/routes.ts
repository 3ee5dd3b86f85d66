import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addMember, createBusiness, getBusiness, removeMember, type BusinessAccount } from '../../../flows/business-accounts.ts';
import { presentProfile } from '../users/present.ts';
import {
  AddMemberBody,
  AlreadyMember,
  BusinessEnvelope,
  BusinessIdParams,
  BusinessNotFound,
  BusinessRefused,
  CreateBusinessBody,
  ErrorEnvelope,
  MemberNotFound,
  MemberParams,
  MemberRefused,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking profiles'];
const errors = { 401: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

const present = (account: BusinessAccount) => ({
  success: true as const,
  profile: presentProfile(account.business),
  members: account.members.map((member) => ({ user_id: member.userId, role: member.role, name: member.name, surname: member.surname, email: member.email })),
});

// Business (segregated) accounts: profiles without a login of their own, on which their members act
// (spec 4: segregated_account_id).
export async function businessAccountAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies } = app.payrail;

  routes.post(
    '/business-accounts',
    {
      schema: {
        operationId: 'adminCreateBusinessAccount',
        summary: 'Create a business account with its members',
        description:
          'Operators only (admin key). A business (segregated) account has no login of its own: its members act on it with their own ' +
          'sessions (segregated_account_id). Every member must be a person (a profile created with POST /api/admin/v1/users), listed once.',
        tags,
        security,
        body: CreateBusinessBody,
        response: { 200: BusinessEnvelope, ...errors, 422: BusinessRefused },
      },
    },
    async (request) => {
      const { body } = request;
      const account = await createBusiness(database.db, currencies, {
        name: body.name,
        companyName: body.company_name,
        currentCurrency: body.current_currency,
        country: body.country,
        members: body.members.map((member) => ({ userId: member.user_id, role: member.role })),
      });
      return present(account);
    },
  );

  routes.get(
    '/business-accounts/:id',
    {
      schema: {
        operationId: 'adminGetBusinessAccount',
        summary: 'Get a business account with its members',
        description: 'Operators only (admin key). The id of a person answers 404: it is no business account.',
        tags,
        security,
        params: BusinessIdParams,
        response: { 200: BusinessEnvelope, ...errors, 404: BusinessNotFound },
      },
    },
    async (request) => present(await getBusiness(database.db, request.params.id)),
  );

  routes.post(
    '/business-accounts/:id/members',
    {
      schema: {
        operationId: 'adminAddBusinessMember',
        summary: 'Add a person to a business account',
        description:
          'Operators only (admin key). The person may then act on the account (segregated_account_id) with their own session; 409 when ' +
          'they are a member already.',
        tags,
        security,
        params: BusinessIdParams,
        body: AddMemberBody,
        response: { 200: BusinessEnvelope, ...errors, 404: BusinessNotFound, 409: AlreadyMember, 422: MemberRefused },
      },
    },
    async (request) => present(await addMember(database.db, request.params.id, request.body.user_id, request.body.role)),
  );

  routes.delete(
    '/business-accounts/:id/members/:user_id',
    {
      schema: {
        operationId: 'adminRemoveBusinessMember',
        summary: 'Remove a person from a business account',
        description: 'Operators only (admin key). The person can no longer act on the account; their own profile is untouched.',
        tags,
        security,
        params: MemberParams,
        response: { 200: BusinessEnvelope, ...errors, 404: MemberNotFound },
      },
    },
    async (request) => present(await removeMember(database.db, request.params.id, request.params.user_id)),
  );
}
