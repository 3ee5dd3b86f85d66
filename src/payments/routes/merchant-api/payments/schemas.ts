import Type, { type Static } from 'typebox';
import { REQUEST_INTEGER_MAX } from '../../../../platform/lib/request-validation.ts';
import { CardSchema, NO_CONTROL_CHARACTERS_PATTERN } from '../../../contract/card-schema.ts';
import {
  AMOUNT_STRING_PATTERN,
  COUNTRY_FORMAT,
  CURRENCY_FORMAT,
  DATE_YYYYMMDD_FORMAT,
  HTTP_URL_PATTERN,
  IP_FORMAT,
} from '../../../contract/request-formats.ts';
import { createPaymentCardExample, createPaymentHostedExample } from '../examples.ts';

const URL_LENGTH_MAX = 2048;
const EMAIL_LENGTH_MAX = 254;
const EXPIRES_AT_MINUTES_MAX = 43_200;
const RECURRING_DAYS_MAX = 3660;

const TestClockSchema = Type.String({
  pattern: '^clock_[0-9a-f]{24}$',
  description:
    'Sandbox keys only: the test clock (POST /api/v1/test-clocks) whose time the payment lives by; advancing the clock expires, voids and checks it as if that time had passed (spelled test_clock in variant B)',
});

function text(minLength: number, maxLength: number, description: string) {
  return Type.String({ minLength, maxLength, pattern: NO_CONTROL_CHARACTERS_PATTERN, description });
}

function httpUrl(description: string) {
  return Type.String({ format: 'uri', pattern: HTTP_URL_PATTERN, maxLength: URL_LENGTH_MAX, description });
}

const LocaleSchema = Type.Enum(['en', 'zh', 'jp'], {
  description: 'Language of the payment page (default en)',
});

const ExpiresAtSchema = Type.Integer({
  minimum: 1,
  maximum: EXPIRES_AT_MINUTES_MAX,
  description: 'Minutes the payment may wait for card data before it expires (spelled expires_at in both variants; default PAYRAIL_PAYMENT_EXPIRY_MINUTES)',
});

export const BrowserSchema = Type.Object(
  {
    accept_header: Type.Optional(text(0, 2048, 'HTTP Accept header of the customer browser')),
    color_depth: Type.Optional(Type.Number({ description: 'Screen color depth in bits' })),
    ip: Type.Optional(text(0, 64, 'IP address the browser reports')),
    language: Type.Optional(text(0, 64, 'Browser language, e.g. en-US')),
    screen_height: Type.Optional(Type.Number({ description: 'Screen height in pixels' })),
    screen_width: Type.Optional(Type.Number({ description: 'Screen width in pixels' })),
    tz: Type.Optional(Type.Number({ description: 'Time-zone offset from UTC in minutes' })),
    user_agent: Type.Optional(text(0, 2048, 'Browser User-Agent header')),
    java_enabled: Type.Optional(Type.Boolean({ description: 'Whether Java is enabled' })),
    javascript_enabled: Type.Optional(Type.Boolean({ description: 'Whether JavaScript is enabled' })),
    window_width: Type.Optional(Type.Number({ description: 'Browser window width in pixels' })),
    window_height: Type.Optional(Type.Number({ description: 'Browser window height in pixels' })),
  },
  { additionalProperties: true, description: 'Browser data for 3-D Secure 2; unlisted properties are accepted and ignored' },
);

const customerCommonProperties = {
  email: Type.String({ format: 'email', maxLength: EMAIL_LENGTH_MAX, description: 'Customer e-mail address' }),
  address: Type.Optional(text(5, 55, 'Street address')),
  country: Type.Optional(Type.String({ format: COUNTRY_FORMAT, description: 'ISO 3166-1 alpha-2 country code, upper-case, e.g. US' })),
  city: Type.Optional(text(4, 55, 'City')),
  region: Type.Optional(text(5, 55, 'Region or state')),
  postcode: Type.Optional(text(4, 55, 'Postal code')),
  phone: Type.Optional(text(6, 20, 'Phone number')),
  ip: Type.Optional(Type.String({ format: IP_FORMAT, description: 'Customer IPv4 or IPv6 address' })),
  browser: Type.Optional(BrowserSchema),
};

const customerDescription = 'Host-to-Host customer data; required when card or bank_account is sent';

const CustomerSchemaA = Type.Object(
  {
    ...customerCommonProperties,
    first_name: Type.Optional(text(1, 100, 'Customer first name')),
    last_name: Type.Optional(text(1, 100, 'Customer last name')),
  },
  { additionalProperties: false, description: customerDescription },
);

const CustomerSchemaB = Type.Object(
  {
    ...customerCommonProperties,
    name: Type.Optional(text(1, 100, 'Customer first name')),
    surname: Type.Optional(text(1, 100, 'Customer last name')),
  },
  { additionalProperties: false, description: customerDescription },
);

const RecurringDataSchema = Type.Object(
  {
    days: Type.Integer({ minimum: 1, maximum: RECURRING_DAYS_MAX, description: 'Days between authorizations' }),
    exp_date: Type.String({
      format: DATE_YYYYMMDD_FORMAT,
      description: 'Last date periodic payments are valid, YYYYMMDD',
    }),
  },
  { additionalProperties: false, description: 'Host-to-Host recurring data; both fields are required' },
);

const BankAccountSchema = Type.Object(
  {
    bank_name: Type.Optional(text(1, 255, 'Bank name')),
    requisite_type: Type.Optional(Type.Enum(['sbp', 'card', 'account', 'link'], { description: 'Kind of requisite the customer pays with' })),
    account_number: Type.Optional(text(1, 64, 'Account, card or phone number of the requisite')),
  },
  { additionalProperties: false, description: 'Bank and requisite selection; its presence makes the body variant C' },
);

// spec 2.1: customer is required in the Host-to-Host (card / bank_account) variants.
const hostToHostDependencies = { card: ['customer'], bank_account: ['customer'] };

export const CreatePaymentBodyA = Type.Object(
  {
    product: text(5, 255, 'Description of what is paid for'),
    amount: Type.Union([Type.Integer({ minimum: 1, maximum: REQUEST_INTEGER_MAX }), Type.String({ pattern: AMOUNT_STRING_PATTERN, maxLength: 32 })], {
      description: 'Amount in minor units: a positive integer or its decimal string (1..32 digits)',
    }),
    currency: Type.String({
      minLength: 3,
      maxLength: 3,
      format: CURRENCY_FORMAT,
      description: 'ISO 4217 code, upper-case, e.g. USD',
    }),
    callbackUrl: httpUrl('http(s) URL notified when the payment is finalised'),
    redirectSuccessUrl: Type.Optional(httpUrl('http(s) URL the customer returns to after success')),
    redirectFailUrl: Type.Optional(httpUrl('http(s) URL the customer returns to after an error or failure')),
    pendingUrl: Type.Optional(httpUrl('http(s) URL the customer returns to while the payment is unfinished')),
    extraReturnParam: Type.Optional(text(1, 1024, 'Merchant value returned in callbacks')),
    expires_at: Type.Optional(ExpiresAtSchema),
    orderNumber: Type.Optional(text(3, 255, 'Merchant order number')),
    locale: Type.Optional(LocaleSchema),
    walletToken: Type.Optional(text(1, 255, 'Token of a customer wallet for a recurring payment')),
    recurring: Type.Optional(Type.Boolean({ description: 'true to initialize a recurring payment' })),
    recurringToken: Type.Optional(text(1, 255, 'Token of the recurring payment this one follows')),
    needConfirmation: Type.Optional(Type.Boolean({ description: 'true for a two-step (pre-authorized) payment' })),
    merchantUrl: Type.Optional(httpUrl('Merchant site URL, for traffic from aggregators')),
    card: Type.Optional(CardSchema),
    customer: Type.Optional(CustomerSchemaA),
    recurring_data: Type.Optional(RecurringDataSchema),
    bank_account: Type.Optional(BankAccountSchema),
    testClock: Type.Optional(TestClockSchema),
  },
  {
    additionalProperties: false,
    dependencies: hostToHostDependencies,
    description: 'Variant A (camelCase) payment-create body',
  },
);

export const CreatePaymentBodyB = Type.Object(
  {
    product: text(2, 255, 'Description of what is paid for'),
    amount: Type.Integer({ minimum: 1, maximum: REQUEST_INTEGER_MAX, description: 'Amount in minor units' }),
    currency: Type.String({
      minLength: 3,
      maxLength: 4,
      format: CURRENCY_FORMAT,
      description: 'ISO 4217 code or a configured 4-letter code, upper-case, e.g. USD or USDT',
    }),
    order_number: Type.Optional(text(3, 255, 'Merchant order number')),
    callback_url: Type.Optional(httpUrl('http(s) URL notified when the payment is finalised')),
    redirect_success_url: Type.Optional(httpUrl('http(s) URL the customer returns to after success')),
    redirect_fail_url: Type.Optional(httpUrl('http(s) URL the customer returns to after an error or failure')),
    pending_url: Type.Optional(httpUrl('http(s) URL the customer returns to while the payment is unfinished')),
    extra_return_param: Type.Optional(text(1, 1024, 'Merchant value returned in callbacks')),
    locale: Type.Optional(LocaleSchema),
    expires_at: Type.Optional(ExpiresAtSchema),
    card: Type.Optional(CardSchema),
    customer: Type.Optional(CustomerSchemaB),
    recurring_data: Type.Optional(RecurringDataSchema),
    bank_account: Type.Optional(BankAccountSchema),
    test_clock: Type.Optional(TestClockSchema),
  },
  {
    additionalProperties: false,
    dependencies: hostToHostDependencies,
    description: 'Variant B (snake_case) payment-create body',
  },
);

// For documentation only: which variant applies is decided by the field names (validate-create.ts).
export const CreatePaymentBody = Type.Union([CreatePaymentBodyA, CreatePaymentBodyB], {
  description: 'Payment-create body, camelCase (A) or snake_case (B); either becomes variant C with bank_account',
  examples: [createPaymentHostedExample, createPaymentCardExample],
});

export type CreatePaymentBodyAInput = Static<typeof CreatePaymentBodyA>;
export type CreatePaymentBodyBInput = Static<typeof CreatePaymentBodyB>;
