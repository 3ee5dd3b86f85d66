import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { changeUser, createPerson, getUser, listUsersPage } from '../../../flows/core-users.ts';
import { presentProfile } from './present.ts';
import {
  ChangeUserBody,
  ContactTaken,
  CreateUserBody,
  ErrorEnvelope,
  PersonRefused,
  ProfileEnvelope,
  ProfileListEnvelope,
  ProfileNotFound,
  UserIdParams,
  UserListQuery,
} from './schemas.ts';

const security = [{ adminKey: [] }];
const tags = ['admin: core banking profiles'];
const errors = { 401: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope };

// Profiles of the core banking API (issue 9): operators create people, who then sign in with e-mail or phone.
export async function userAdminRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies, config } = app.payrail;

  routes.post(
    '/users',
    {
      schema: {
        operationId: 'adminCreateUser',
        summary: 'Create a person who can sign in to the core banking API',
        description:
          'Operators only (admin key). E-mail (lower-cased) and phone (+ and digits) must be unique: 409 otherwise. The person signs in with ' +
          'either and the password, which is kept only as a scrypt hash. current_currency must be a known currency, country ISO 3166-1 alpha-2.',
        tags,
        security,
        body: CreateUserBody,
        response: { 200: ProfileEnvelope, ...errors, 409: ContactTaken, 422: PersonRefused },
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
    {
      schema: {
        operationId: 'adminListUsers',
        summary: 'List profiles, newest first',
        description: 'Operators only (admin key). People and business accounts, perPage (at most 500) a page; kind keeps one of the two.',
        tags,
        security,
        querystring: UserListQuery,
        response: { 200: ProfileListEnvelope, ...errors },
      },
    },
    async (request) => {
      const { page, perPage, kind } = request.query;
      const { rows, total } = await listUsersPage(database.db, page, perPage, kind ?? null);
      return { success: true as const, totalCount: total, page, perPage, profiles: rows.map(presentProfile) };
    },
  );

  routes.get(
    '/users/:id',
    {
      schema: {
        operationId: 'adminGetUser',
        summary: 'Get a profile',
        description: 'Operators only (admin key). A person or a business account, without its password hash.',
        tags,
        security,
        params: UserIdParams,
        response: { 200: ProfileEnvelope, ...errors, 404: ProfileNotFound },
      },
    },
    async (request) => ({ success: true as const, profile: presentProfile(await getUser(database.db, request.params.id)) }),
  );

  routes.patch(
    '/users/:id',
    {
      schema: {
        operationId: 'adminUpdateUser',
        summary: "Change a profile's status, KYC status or wallet PIN setting",
        description:
          'Operators only (admin key). Give at least one field; a field left out keeps its value. status disabled stops sign-in and every ' +
          'session of the profile at once; active lets the person sign in again.',
        tags,
        security,
        params: UserIdParams,
        body: ChangeUserBody,
        response: { 200: ProfileEnvelope, ...errors, 404: ProfileNotFound },
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
