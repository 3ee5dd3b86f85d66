import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { changeUser, createPerson, getUser, listUsersPage } from '../../flows/core-users.ts';
import { presentProfile } from './present.ts';
import { ChangeUserBody, CreateUserBody, ErrorEnvelope, ProfileEnvelope, ProfileListEnvelope, UserIdParams, UserListQuery } from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking profiles'];
const errors = { 401: ErrorEnvelope, 404: ErrorEnvelope, 409: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

// Profiles of the core banking API (issue 9): operators create people, who then sign in with e-mail or phone.
export async function userAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies, config } = app.payrail;

  routes.post(
    '/users',
    {
      schema: {
        summary: 'Create a person who can sign in to the core banking API',
        description: 'E-mail (lower-cased) and phone (+ and digits) must be unique: 409 otherwise. The password is kept only as a scrypt hash.',
        tags,
        security,
        body: CreateUserBody,
        response: { 200: ProfileEnvelope, ...errors },
      },
    },
    async (request) => {
      const { body } = request;
      const person = await createPerson(
        database.db,
        currencies,
        {
          email: body.email,
          phone: body.phone,
          password: body.password,
          name: body.name,
          surname: body.surname,
          companyName: body.company_name,
          walletType: body.wallet_type,
          currentCurrency: body.current_currency,
          country: body.country,
        },
        config.passwordScryptLogN,
      );
      return { success: true as const, profile: presentProfile(person) };
    },
  );

  routes.get(
    '/users',
    { schema: { summary: 'List profiles, newest first', tags, security, querystring: UserListQuery, response: { 200: ProfileListEnvelope, ...errors } } },
    async (request) => {
      const { page, perPage, kind } = request.query;
      const { rows, total } = await listUsersPage(database.db, page, perPage, kind ?? null);
      return { success: true as const, totalCount: total, page, perPage, profiles: rows.map(presentProfile) };
    },
  );

  routes.get(
    '/users/:id',
    { schema: { summary: 'Get a profile', tags, security, params: UserIdParams, response: { 200: ProfileEnvelope, ...errors } } },
    async (request) => ({ success: true as const, profile: presentProfile(await getUser(database.db, request.params.id)) }),
  );

  routes.patch(
    '/users/:id',
    {
      schema: {
        summary: "Change a profile's status, KYC status or wallet PIN setting",
        description: 'status disabled stops sign-in and every session of the profile at once.',
        tags,
        security,
        params: UserIdParams,
        body: ChangeUserBody,
        response: { 200: ProfileEnvelope, ...errors },
      },
    },
    async (request) => {
      const { status, kyc_status, wallet_pin_enabled } = request.body;
      const user = await changeUser(database.db, request.params.id, {
        ...(status === undefined ? {} : { status }),
        ...(kyc_status === undefined ? {} : { kycStatus: kyc_status }),
        ...(wallet_pin_enabled === undefined ? {} : { walletPinEnabled: wallet_pin_enabled }),
      });
      return { success: true as const, profile: presentProfile(user) };
    },
  );
}
