import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { SANDBOX_TEST_CARDS, SANDBOX_TEST_CARDS_URL_PATH } from './test-cards.ts';

const TestCardList = Type.Object(
  {
    success: Type.Literal(true),
    cards: Type.Array(
      Type.Object({
        pan: Type.String(),
        display: Type.String(),
        operation: Type.String({ description: 'pay | payout' }),
        three_d_secure: Type.Boolean(),
        scenario: Type.String(),
        outcome: Type.String(),
      }),
    ),
    note: Type.String(),
  },
  {
    examples: [
      {
        success: true,
        cards: SANDBOX_TEST_CARDS.slice(0, 3).map((card) => ({
          pan: card.pan,
          display: card.display,
          operation: card.operation,
          three_d_secure: card.threeDSecure,
          scenario: card.scenario,
          outcome: card.outcome,
        })),
        note: 'Sandbox only; … (the cards are the first three of the list)',
      },
    ],
  },
);

// Public documentation of the sandbox: no key needed to read which cards do what.
export async function testCardsRoute(app: FastifyInstance): Promise<void> {
  app.get(
    SANDBOX_TEST_CARDS_URL_PATH,
    {
      schema: {
        operationId: 'listSandboxTestCards',
        summary: 'The sandbox test cards and what each does',
        description:
          'No key needed. Each card number drives one scenario of the sandbox gateway (`sk_sandbox_…` keys): approved or declined at once, after 3-D Secure, after a secure code or a next step, later by callback or status check, or after a timeout; and two payout cards. Send one as `card.pan` of `POST /api/v1/payments` (with `customer`), or type it on the hosted payment page.',
        tags: ['sandbox'],
        response: { 200: TestCardList },
      },
    },
    async () => ({
      success: true as const,
      cards: SANDBOX_TEST_CARDS.map((card) => ({
        pan: card.pan,
        display: card.display,
        operation: card.operation,
        three_d_secure: card.threeDSecure,
        scenario: card.scenario,
        outcome: card.outcome,
      })),
      note: 'Sandbox only; any cardholder name and CVV are accepted, and any expiry from the current month on: an earlier one is declined "Expired card", whatever the number. A failed 3-D Secure authentication always declines.',
    }),
  );
}
