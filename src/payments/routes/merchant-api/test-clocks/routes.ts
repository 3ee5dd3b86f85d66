import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { AdvanceRequest } from '../../../domain/test-clock.ts';
import { advanceTestClock, createTestClock, getTestClock, listMerchantTestClocks } from '../../../flows/test-clocks.ts';
import { presentTestClock } from './present.ts';
import { AdvanceTestClockBody, CreateTestClockBody, ErrorEnvelope, TestClockEnvelope, TestClockListEnvelope, TestClockParams } from './schemas.ts';

const security = [{ merchantKey: [] }];
const tags = ['sandbox'];
const errors = { 401: ErrorEnvelope, 403: ErrorEnvelope, 429: ErrorEnvelope };

// Sandbox test clocks (docs/test-clocks.md): payments created with testClock live by the clock's time, and an advance
// expires, voids and checks them at once as if that time had passed.
export async function testClockRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.payrail.database.db;

  routes.post(
    '/api/v1/test-clocks',
    {
      schema: {
        operationId: 'createTestClock',
        summary: 'Create a test clock (sandbox keys only)',
        description:
          'A clock that starts at now (or at `frozenTime`, up to 400 days ahead) and moves only when you advance it. Create sandbox payments with `testClock: "<id>"` to have them live by its time. A merchant keeps at most 20 clocks (409 `test_clock_limit`); a production key is refused (403 `sandbox_only`).',
        tags,
        security,
        body: CreateTestClockBody,
        response: { 201: TestClockEnvelope, ...errors, 409: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const clock = await createTestClock(db, request.merchant!, request.body);
      return reply.code(201).send({ success: true as const, result: 0 as const, testClock: presentTestClock(clock) });
    },
  );

  routes.get(
    '/api/v1/test-clocks',
    {
      schema: {
        operationId: 'listTestClocks',
        summary: "List the merchant's test clocks, newest first (at most 20)",
        description: "The sandbox key's merchant's clocks (at most 20 exist), each with its time now and how many payments live by it.",
        tags,
        security,
        response: { 200: TestClockListEnvelope, ...errors },
      },
    },
    async (request) => {
      const clocks = await listMerchantTestClocks(db, request.merchant!);
      return { success: true as const, result: 0 as const, testClocks: clocks.map(presentTestClock) };
    },
  );

  routes.get(
    '/api/v1/test-clocks/:id',
    {
      schema: {
        operationId: 'getTestClock',
        summary: 'Get one test clock: its time and how many payments live by it',
        description: "404 `not_found` for an unknown id or another merchant's clock.",
        tags,
        security,
        params: TestClockParams,
        response: { 200: TestClockEnvelope, ...errors, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const clock = await getTestClock(db, request.merchant!, request.params.id);
      return { success: true as const, result: 0 as const, testClock: presentTestClock(clock) };
    },
  );

  routes.post(
    '/api/v1/test-clocks/:id/advance',
    {
      schema: {
        operationId: 'advanceTestClock',
        summary: 'Move a test clock forward: its payments expire, are voided and checked at once',
        description:
          "Send `to` (a time after the clock's now) or `seconds`, not both; one advance moves the clock 400 days at most, and a clock runs at most 10 years ahead (422 `test_clock_offset_limit`). The payments of the clock then expire (their lifetime), are voided (an authorization past its hold), accept their next charge (a recurring series past its `days`) and have their status checks and notification retries come due exactly as if that time had passed; the workers act on them at once. Concurrent advances of one clock run one after the other.",
        tags,
        security,
        params: TestClockParams,
        body: AdvanceTestClockBody,
        response: { 200: TestClockEnvelope, ...errors, 404: ErrorEnvelope, 422: ErrorEnvelope },
      },
    },
    async (request) => {
      const clock = await advanceTestClock(db, request.merchant!, request.params.id, request.body as AdvanceRequest);
      return { success: true as const, result: 0 as const, testClock: presentTestClock(clock) };
    },
  );
}
