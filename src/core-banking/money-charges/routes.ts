import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { cancelMoneyCharge, createMoneyCharge, declineMoneyCharge, listUserMoneyCharges, payMoneyCharge } from '../../flows/money-charges.ts';
import {
  ChargeEnvelope,
  ChargeIdBody,
  ChargeListEnvelope,
  ChargeListQuery,
  CoreErrorEnvelope,
  CreateChargeBody,
  DeclineChargeBody,
  DoneEnvelope,
} from './schemas.ts';

const tags = ['core banking: money charges'];
const security = [{ sessionToken: [] }];
const errors = { 401: CoreErrorEnvelope, 403: CoreErrorEnvelope, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope };
const changeErrors = { ...errors, 404: CoreErrorEnvelope, 409: CoreErrorEnvelope };

// Requests for money between people (header session-token): the requester creates and may cancel one; the payer
// pays it from their wallet or declines it. Nobody sees or touches a charge they are not a party to.
export async function moneyChargeRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { database, currencies } = app.payrail;
  const deps = { db: database.db, currencies };
  const ok = { success: true as const, status: 200 as const };

  routes.post(
    '/api/v1/social/money/charge',
    {
      schema: {
        summary: 'Ask another person for money',
        description: 'The payer is named by profile id, e-mail or phone; an unknown payer, yourself, and a disabled profile all answer 422 payer_not_found.',
        tags,
        security,
        body: CreateChargeBody,
        response: { 200: ChargeEnvelope, ...errors },
      },
    },
    async (request) => ({ ...ok, charge: await createMoneyCharge(deps, request.coreSession!.userId, request.body) }),
  );

  routes.get(
    '/api/v1/social/money/charges',
    {
      schema: {
        summary: 'List the money charges addressed to you or sent by you',
        tags,
        security,
        querystring: ChargeListQuery,
        response: { 200: ChargeListEnvelope, ...errors },
      },
    },
    async (request) => {
      const { role, status, page } = request.query;
      return { ...ok, ...(await listUserMoneyCharges(deps, request.coreSession!.userId, { role: role ?? null, status: status ?? null, page })) };
    },
  );

  routes.post(
    '/api/v1/social/money/charge/pay',
    {
      schema: {
        summary: 'Pay a pending money charge addressed to you from your wallet',
        description: 'Moves the amount from your wallet in the charge currency to the requester wallet; 422 insufficient_funds leaves it pending.',
        tags,
        security,
        body: ChargeIdBody,
        response: { 200: ChargeEnvelope, ...changeErrors },
      },
    },
    async (request) => ({ ...ok, charge: await payMoneyCharge(deps, request.coreSession!.userId, request.body.id) }),
  );

  routes.post(
    '/api/v1/social/money/charge/decline',
    {
      schema: {
        summary: 'Decline a pending money charge addressed to you',
        description: "Only the payer declines; another user's charge answers 404 like a missing one; a charge no longer pending, 409.",
        tags,
        security,
        body: DeclineChargeBody,
        response: { 200: DoneEnvelope, ...changeErrors },
      },
    },
    async (request) => {
      await declineMoneyCharge(deps, request.coreSession!.userId, request.body.id, request.body.privacy ?? null);
      return ok;
    },
  );

  routes.post(
    '/api/v1/social/money/charge/cancel',
    {
      schema: {
        summary: 'Cancel a pending money charge you sent',
        tags,
        security,
        body: ChargeIdBody,
        response: { 200: DoneEnvelope, ...changeErrors },
      },
    },
    async (request) => {
      await cancelMoneyCharge(deps, request.coreSession!.userId, request.body.id);
      return ok;
    },
  );
}
