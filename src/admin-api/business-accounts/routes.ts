import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { addMember, createBusiness, getBusiness, removeMember, type BusinessAccount } from '../../flows/business-accounts.ts';
import { presentProfile } from '../users/present.ts';
import { AddMemberBody, BusinessEnvelope, BusinessIdParams, CreateBusinessBody, ErrorEnvelope, MemberParams } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking profiles'];
const errors = { 401: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

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
        summary: 'Create a business account with its members',
        description: 'Every member must be a person (a profile created with POST /users).',
        tags,
        security,
        body: CreateBusinessBody,
        response: { 200: BusinessEnvelope, ...errors },
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
      schema: { summary: 'Get a business account with its members', tags, security, params: BusinessIdParams, response: { 200: BusinessEnvelope, ...errors } },
    },
    async (request) => present(await getBusiness(database.db, request.params.id)),
  );

  routes.post(
    '/business-accounts/:id/members',
    {
      schema: {
        summary: 'Add a person to a business account',
        description: '409 when the person is a member already.',
        tags,
        security,
        params: BusinessIdParams,
        body: AddMemberBody,
        response: { 200: BusinessEnvelope, ...errors },
      },
    },
    async (request) => present(await addMember(database.db, request.params.id, request.body.user_id, request.body.role)),
  );

  routes.delete(
    '/business-accounts/:id/members/:user_id',
    {
      schema: {
        summary: 'Remove a person from a business account',
        tags,
        security,
        params: MemberParams,
        response: { 200: BusinessEnvelope, ...errors },
      },
    },
    async (request) => present(await removeMember(database.db, request.params.id, request.params.user_id)),
  );
}
