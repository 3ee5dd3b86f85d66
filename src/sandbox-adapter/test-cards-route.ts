import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import { SANDBOX_TEST_CARDS, SANDBOX_TEST_CARDS_URL_PATH } from './test-cards.ts';

const TestCardList = Type.Object({
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
});

// Public documentation of the sandbox: no key needed to read which cards do what.
export async function testCardsRoute(app: FastifyInstance): Promise<void> {
  app.get(
    SANDBOX_TEST_CARDS_URL_PATH,
    { schema: { summary: 'The sandbox test cards and what each does', tags: ['sandbox'], response: { 200: TestCardList } } },
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
      note: 'Sandbox only; any cardholder name, expiry and CVV are accepted. A failed 3-D Secure authentication always declines.',
    }),
  );
}
