import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { cancelMoneyCharge, createMoneyCharge, declineMoneyCharge, listUserMoneyCharges, payMoneyCharge } from '../../flows/money-charges.ts';
import {
  ChargeEnvelope,
  CancelChargeBody,
  ChargeIdBody,
  ChargeListEnvelope,
  ChargeListQuery,
  ChargeNotFound,
  ChargeNotPending,
  ChargeRefused,
  CoreErrorEnvelope,
  CreateChargeBody,
  DeclineChargeBody,
  DoneEnvelope,
  PaymentRefused,
  ProfileDisabled,
} from './schemas.ts';

const tags = ['core banking: money charges'];
const security = [{ sessionToken: [] }];
const errors = { 401: CoreErrorEnvelope, 403: ProfileDisabled, 422: CoreErrorEnvelope, 429: CoreErrorEnvelope };
const changeErrors = { ...errors, 404: ChargeNotFound, 409: ChargeNotPending };

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
        operationId: 'coreCreateMoneyCharge',
        summary: 'Ask another person for money',
        description:
          'Needs a live session (header session-token); you become the requester. The charge stays pending until the payer pays or declines it, or you cancel it. The payer is named by profile id, e-mail or phone; an unknown payer, yourself, and a disabled profile all answer 422 payer_not_found.',
        tags,
        security,
        body: CreateChargeBody,
        response: { 200: ChargeEnvelope, ...errors, 422: ChargeRefused },
      },
    },
    async (request) => ({ ...ok, charge: await createMoneyCharge(deps, request.coreSession!.userId, request.body) }),
  );

  routes.get(
    '/api/v1/social/money/charges',
    {
      schema: {
        operationId: 'coreListMoneyCharges',
        summary: 'List the money charges addressed to you or sent by you',
        description: 'Needs a live session (header session-token). Only your own charges, newest first, 20 a page; role and status narrow the list.',
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
        operationId: 'corePayMoneyCharge',
        summary: 'Pay a pending money charge addressed to you from your wallet',
        description:
          "Needs a live session (header session-token); only the payer pays: another user's charge answers 404 like a missing one, a charge no longer pending 409. Moves the amount from your wallet in the charge currency to the requester wallet; 422 insufficient_funds leaves it pending.",
        tags,
        security,
        body: ChargeIdBody,
        response: { 200: ChargeEnvelope, ...changeErrors, 422: PaymentRefused },
      },
    },
    async (request) => ({ ...ok, charge: await payMoneyCharge(deps, request.coreSession!.userId, request.body.id) }),
  );

  routes.post(
    '/api/v1/social/money/charge/decline',
    {
      schema: {
        operationId: 'coreDeclineMoneyCharge',
        summary: 'Decline a pending money charge addressed to you',
        description:
          "Needs a live session (header session-token). Only the payer declines; privacy, when given, becomes the charge's; another user's charge answers 404 like a missing one; a charge no longer pending, 409.",
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
        operationId: 'coreCancelMoneyCharge',
        summary: 'Cancel a pending money charge you sent',
        description:
          "Needs a live session (header session-token). Only the requester cancels; another user's charge answers 404 like a missing one; a charge no longer pending, 409.",
        tags,
        security,
        body: CancelChargeBody,
        response: { 200: DoneEnvelope, ...changeErrors },
      },
    },
    async (request) => {
      await cancelMoneyCharge(deps, request.coreSession!.userId, request.body.id);
      return ok;
    },
  );
}
