import Type from 'typebox';
import { NO_CONTROL_CHARACTERS_PATTERN } from '../../../contract/card-schema.ts';
import { LIST_COUNT_EXACT_MAX_ROWS, LIST_PAGE_DEPTH_MAX_ROWS } from '../../../flows/find-payments.ts';
import { REQUEST_INTEGER_MAX } from '../../../../platform/lib/request-validation.ts';
import { BrowserSchema } from './schemas.ts';
import { PendingStepSchema } from './step-present.ts';
import { createdHostedExample, createdThreeDSecureExample, paymentDetailExample, paymentListExample } from '../examples.ts';

const Nullable = <T extends Type.TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const EmptyErrors = Type.Array(Type.Object({ code: Type.String(), message: Type.String() }), { maxItems: 0 });
const RedirectRequestSchema = Type.Object({
  url: Type.String(),
  type: Type.String({ description: 'get | post | post_iframes | get_with_processing | redirect_html' }),
  params: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
const Status = Type.String({
  description:
    'init | pending | processing | authorized (two-step: waiting for confirm or decline) | approved | declined | expired | cancelled | refunded; final: approved, declined, expired, cancelled, refunded',
});
// spec 2.1: present once a payment created with recurring: true is approved and its provider kept the card.
const seriesTokens = {
  recurringToken: Type.Optional(
    Type.String({ description: 'recurring first payment, once approved: send it as recurringToken to charge the saved card again (32 hex)' }),
  ),
  walletToken: Type.Optional(
    Type.String({ description: 'recurring first payment, once approved: send it as walletToken for a charge the customer confirms (32 hex)' }),
  ),
};

export const CreatePaymentResponseA = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Integer({ description: 'always 0 on success, as in variant C' }),
    status: Type.Integer({ description: 'always 200 on success, as in variant C' }),
    errors: EmptyErrors,
    token: Type.String({ description: '32 lowercase hex characters' }),
    processingUrl: Type.Union([Type.String(), Type.Array(Type.Record(Type.String(), Type.String()))], {
      description:
        'the hosted payment page of this payment; when the merchant has several active gateways and no routing: single-key objects, gateway alias → its payment page URL (spec 2.2)',
    }),
    selectorURL: Type.Optional(Type.String({ description: 'with several gateways offered: the provider-selection page' })),
    payment: Type.Object({
      amount: Type.String(),
      gateway_amount: Type.Integer({ description: 'what the gateway is asked to charge, minor units of the gateway currency' }),
      currency: Type.String(),
      status: Status,
      two_stage_mode: Type.Boolean({ description: 'true for a two-step payment (needConfirmation)' }),
    }),
    redirectRequest: Type.Optional(RedirectRequestSchema),
    pendingStep: Type.Optional(PendingStepSchema),
    ...seriesTokens,
  },
  { description: 'variants A and B (spec 2.2); redirectRequest when a Host-to-Host card needs 3-D Secure' },
);

const CreatePaymentResponseC = Type.Object(
  {
    success: Type.Literal(true),
    result: Type.Integer(),
    status: Type.Integer(),
    errors: EmptyErrors,
    token: Type.String(),
    processingUrl: Type.Array(Type.Record(Type.String(), Type.String()), {
      description: 'single-key objects: provider name → payment page URL',
    }),
    selectorUrl: Type.String(),
    ...seriesTokens,
    payment: Type.Object({
      amount: Type.Integer(),
      gateway_amount: Type.Integer(),
      currency: Type.String(),
      status: Status,
      two_stage_mode: Type.Boolean(),
      commission: Type.Number(),
    }),
  },
  { description: 'variant C, Host-to-Host with bank_account (spec 2.2)' },
);

export const CreatePaymentResponse = Type.Union([CreatePaymentResponseA, CreatePaymentResponseC], {
  examples: [createdHostedExample, createdThreeDSecureExample],
});

const listItemFields = {
  id: Type.Integer(),
  status: Status,
  token: Type.String(),
  currency: Type.String(),
  product: Type.String(),
  redirect_success_url: Nullable(Type.String()),
  redirect_fail_url: Nullable(Type.String()),
  amount: Type.Integer({ description: 'minor units' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  extra_return_param: Nullable(Type.String()),
  operation_type: Type.String({ description: 'pay | payout' }),
  order_number: Nullable(Type.String()),
};

const PaymentListItem = Type.Object(listItemFields);

const PaymentDetail = Type.Object({
  ...listItemFields,
  callback_url: Nullable(Type.String()),
  pending_url: Nullable(Type.String()),
  gateway_amount: Type.Integer(),
  gateway_currency: Type.String(),
  locale: Type.String(),
  expires_at: Nullable(Type.String({ format: 'date-time' })),
  two_stage_mode: Type.Boolean(),
  authorized_until: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
    description: 'an authorized two-step payment is voided automatically at this moment unless confirmed or declined first; null otherwise',
  }),
  captured_amount: Type.Union([Type.Integer(), Type.Null()], { description: 'what an approved payment captured (minor units); null before' }),
  refunded_amount: Type.Integer({ description: 'refunds reserved or sent (minor units)' }),
  refunds: Type.Array(
    Type.Object({
      token: Type.String({ description: "the refund's own token (GET /api/v1/refunds/{token})" }),
      amount: Type.Integer({ description: 'minor units' }),
      status: Type.String({ description: 'pending | approved | declined' }),
      currency: Type.String(),
      created_at: Type.String({ format: 'date-time' }),
      decline_reason: Nullable(Type.String()),
    }),
    { description: 'the refunds of this payment, oldest first (POST /api/v1/refunds)' },
  ),
  commission_data: Type.Object(
    {
      commission_value: Type.Number({ description: 'the percentage part, in percent (2.5 = 2.5 %)' }),
      commission_fee: Type.Integer({ description: 'the fixed part, in minor units of the payment currency' }),
      commission_amount: Type.Integer({ description: 'the whole commission on the captured amount (or on the amount before capture), minor units' }),
    },
    { description: "the merchant's commission for this payment, fixed when it was created" },
  ),
  recurring: Type.Boolean(),
  ...seriesTokens,
  merchant_url: Nullable(Type.String()),
  card: Nullable(
    Type.Object({
      mask: Type.String({ description: 'first 6 and last 4 digits; the full PAN is never stored' }),
      holder: Type.String(),
      expires: Nullable(Type.String({ description: 'mm/yyyy; null for the recipient card of a payout' })),
    }),
  ),
  customer: Nullable(
    Type.Object({
      email: Type.String(),
      first_name: Nullable(Type.String()),
      last_name: Nullable(Type.String()),
      address: Nullable(Type.String()),
      country: Nullable(Type.String()),
      city: Nullable(Type.String()),
      region: Nullable(Type.String()),
      postcode: Nullable(Type.String()),
      phone: Nullable(Type.String()),
      ip: Nullable(Type.String()),
      browser: Nullable(BrowserSchema),
    }),
  ),
  recurring_data: Nullable(Type.Object({ days: Type.Integer(), exp_date: Type.String() })),
  decline_reason: Nullable(Type.String()),
  gateway_token: Nullable(Type.String()),
  gateway_details: Nullable(Type.Record(Type.String(), Type.Unknown())),
  requisites: Nullable(Type.Record(Type.String(), Type.Unknown())),
  redirect_request: Nullable(RedirectRequestSchema),
  pending_step: Nullable(PendingStepSchema),
  gateway: Nullable(Type.String({ description: 'alias of the gateway the payment was sent through; null before it was sent' })),
  routing: Nullable(
    Type.Object(
      {
        chosen: Type.String({ description: 'the gateway routing picked first' }),
        order: Type.Array(Type.String(), { description: 'the gateways in the order they may be tried' }),
        excluded: Type.Array(Type.Object({ gateway: Type.String(), rule: Type.String(), reason: Type.String() }), {
          description: 'routing gateways whose rules did not accept this payment',
        }),
        failovers: Type.Array(Type.Object({ gateway: Type.String(), error: Type.String(), at: Type.String({ format: 'date-time' }) }), {
          description: 'gateways that provably never received the request, each followed by the next one',
        }),
      },
      { description: 'how the gateway was chosen when the merchant routes among several (settings.enable_routing); null otherwise' },
    ),
  ),
  interaction_logs: Type.Array(
    Type.Object({ kind: Type.String(), entry: Type.Unknown({ description: 'redacted adapter log (spec 2.9 logs item)' }), created_at: Type.String() }),
    { description: 'adapter interaction logs, PAN masked and secrets removed' },
  ),
  bank_account: Nullable(
    Type.Object({
      bank_name: Nullable(Type.String()),
      requisite_type: Nullable(Type.String()),
      account_number: Nullable(Type.String()),
    }),
  ),
  test_clock: Type.Optional(
    Type.String({
      description:
        'a sandbox payment created with testClock: the clock it lives by (GET /api/v1/test-clocks/{id}); its times read in the wall clock, moved back by each advance',
    }),
  ),
});

export const PaymentEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    errors: EmptyErrors,
    status: Type.Integer(),
    payment: PaymentDetail,
  },
  { examples: [paymentDetailExample] },
);

export const PaymentListEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    errors: EmptyErrors,
    status: Type.Integer(),
    totalCount: Type.Integer({
      description: `payments matching the filters (a cursor aside), counted exactly up to ${LIST_COUNT_EXACT_MAX_ROWS}; above that totalCountExact is false and it is a lower bound: ${LIST_COUNT_EXACT_MAX_ROWS}, or more when the page shows rows further down`,
    }),
    totalCountExact: Type.Boolean({
      description: `false when more than ${LIST_COUNT_EXACT_MAX_ROWS} payments match: totalCount and totalPage are then lower bounds ("at least")`,
    }),
    curentPage: Type.Integer({ description: 'spelled so, as in the spec; 1 on a page read with a cursor' }),
    perPage: Type.Integer(),
    totalPage: Type.Integer({ description: 'ceil(totalCount / perPage): a lower bound when totalCountExact is false' }),
    nextCursor: Nullable(Type.String({ description: 'send it as cursor (with the same filters) for the page after this one; null on the last page' })),
    payments: Type.Array(PaymentListItem),
  },
  { examples: [paymentListExample] },
);

const CURSOR_LENGTH_MAX = 128;
// Stored order numbers hold no control characters (the create schema refuses them), and PostgreSQL text refuses NUL.
const OrderNumberFilter = Type.String({ minLength: 1, maxLength: 255, pattern: NO_CONTROL_CHARACTERS_PATTERN });

export const PaymentListQuery = Type.Object(
  {
    dateFrom: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive (UTC)' })),
    dateTo: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD, inclusive (UTC)' })),
    page: Type.Integer({
      minimum: 1,
      maximum: REQUEST_INTEGER_MAX, // the depth rule (page × perPage) answers page_too_deep with its cursor hint first
      default: 1,
      description: `page × perPage may reach ${LIST_PAGE_DEPTH_MAX_ROWS} rows (deeper: 422 page_too_deep); walk further with cursor`,
    }),
    perPage: Type.Integer({ minimum: 1, maximum: 500, default: 20 }),
    operationType: Type.Union([Type.Literal('pays'), Type.Literal('payouts'), Type.Literal('all')], { default: 'all' }),
    orderNumber: Type.Optional(OrderNumberFilter),
    order_number: Type.Optional(OrderNumberFilter),
    cursor: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: CURSOR_LENGTH_MAX,
        description: 'the nextCursor of the previous page: the rows after it, with no depth limit (page must be 1)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const TokenParams = Type.Object({ token: Type.String({ minLength: 1, maxLength: 64 }) });
