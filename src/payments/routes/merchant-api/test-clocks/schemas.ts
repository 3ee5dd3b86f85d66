import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../../../contract/card-schema.ts';
import { TEST_CLOCK_ADVANCE_MS_MAX, TEST_CLOCK_NAME_CHARS_MAX, TEST_CLOCKS_PER_MERCHANT_MAX } from '../../../domain/test-clock.ts';

const ADVANCE_SECONDS_MAX = TEST_CLOCK_ADVANCE_MS_MAX / 1000;

const ClockId = Type.String({ pattern: '^clock_[0-9a-f]{24}$', description: 'the test clock id: clock_ and 24 hex characters' });

export const CreateTestClockBody = Type.Object(
  {
    name: Type.Optional(
      Type.String({ minLength: 1, maxLength: TEST_CLOCK_NAME_CHARS_MAX, pattern: NO_CONTROL_CHARACTERS_PATTERN, description: 'your label for the clock' }),
    ),
    frozenTime: Type.Optional(
      Type.String({
        format: 'date-time',
        description: "the clock's time at its start (ISO 8601), now or up to 400 days ahead; default: now",
      }),
    ),
  },
  { additionalProperties: false, examples: [{ name: 'Subscription renewals' }] },
);

export const AdvanceTestClockBody = Type.Object(
  {
    to: Type.Optional(Type.String({ format: 'date-time', description: "the clock's new time (ISO 8601), after its now" })),
    seconds: Type.Optional(Type.Integer({ minimum: 1, maximum: ADVANCE_SECONDS_MAX, description: 'how far to move the clock, in seconds' })),
  },
  {
    additionalProperties: false,
    description: 'exactly one of `to` and `seconds`; one advance moves the clock 400 days at most',
    examples: [{ seconds: 169 * 3600 }, { to: '2030-01-01T00:00:00.000Z' }],
  },
);

export const TestClockParams = Type.Object({ id: ClockId });

const exampleClock = {
  id: 'clock_5f0c9a1b2c3d4e5f60718293',
  name: 'Subscription renewals',
  now: '2026-12-01T10:00:00.000Z',
  createdAt: '2026-11-24T10:00:00.000Z',
  paymentCount: 3,
};

const TestClock = Type.Object({
  id: ClockId,
  name: Type.Union([Type.String(), Type.Null()]),
  now: Type.String({ format: 'date-time', description: "the clock's time: the wall clock's plus every advance so far" }),
  createdAt: Type.String({ format: 'date-time', description: 'when the clock was created (wall clock)' }),
  paymentCount: Type.Integer({ description: 'payments created on this clock (at most 1000)' }),
});

export const TestClockEnvelope = Type.Object(
  { success: Type.Literal(true), result: Type.Literal(0), testClock: TestClock },
  { examples: [{ success: true, result: 0, testClock: exampleClock }] },
);

export const TestClockListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Literal(0),
    testClocks: Type.Array(TestClock, { maxItems: TEST_CLOCKS_PER_MERCHANT_MAX, description: 'newest first' }),
  },
  { examples: [{ success: true, result: 0, testClocks: [exampleClock] }] },
);

export const ErrorEnvelope = errorEnvelopeSchema({
  meaning: 'a failure: nothing was changed',
  codes:
    'sandbox_only (403: a production key), not_found (404), test_clock_limit (409: 20 clocks), invalid_field, unknown_field, test_clock_offset_limit (422), unauthorized, …',
  field: 'the offending field: name, frozenTime, to, seconds',
});
