// The head of the OpenAPI document (@fastify/swagger's `openapi` option): what the operations share. Descriptions are
// CommonMark: angle-bracket text goes in code spans, or Swagger UI takes it for an HTML tag and drops it.

const DESCRIPTION = [
  'Three APIs on one host:',
  '',
  '- **Merchant API** (`/api/v1/payments`, `/api/v1/payouts`, `/api/v1/refunds`, `/api/v1/disputes`, `/api/v1/balance`):',
  '  `Authorization: Bearer <merchant key>`. A `sk_sandbox_…` key works in the sandbox, a `sk_live_…` key in production.',
  '- **Core banking API** (`/api/v2/…`, `/api/v1/auth/…`, `/api/v1/social/…`, `/api/internal/…` and the like): header',
  '  `session-token: <session>` for a signed-in person, header `app-token: <token>` for an internal service.',
  '- **Admin API** (`/api/admin/v1/…`), for the operators: `Authorization: Bearer <admin key>`.',
  '',
  'Every failure answers with an error envelope: `{ "success": false, "status": <HTTP status>, "errors": [{ "code", "message", "field" }] }`',
  '(the merchant and admin APIs add `"result": 1`; the core banking API adds `kind`, `expiration` and `session` to each error).',
  'POST requests of the merchant API accept an `Idempotency-Key` header. Too many requests answer 429 with `Retry-After`.',
  '',
  '**Try it out on a fresh `npm start`.** On a brand-new embedded database (`PAYRAIL_DEMO_MERCHANT=1`, the default) the',
  'start creates a demo merchant and prints its sandbox key once, and seeds what the examples act on: an approved payment',
  '(with a refund and a dispute), a payout-ready balance, two-step payments to confirm and to decline, a payment to',
  'cancel, payments waiting for a secure code and for a next step, and two core banking people. The seed lists its',
  "tokens in `<data dir>/demo-seed.json`, and this server's examples carry them, so the operations work in the order",
  'listed, from `payments` on. Authorize with: `merchantKey` the printed `sk_sandbox_…` key (also where an example has',
  '`merchant_private_key`); `adminKey` the printed admin key (`<data dir>/admin.key`); `sessionToken` the `session_token`',
  'of `POST /api/v2/auth/login` (demo login `ada@example.com`, password `correct horse battery staple`) for its confirm',
  'step, then the one the confirm step answers: the 6-digit code is in the service log, `payrail outbox` and',
  '`GET /api/admin/v1/user-messages`; `appToken` a token of `POST /api/admin/v1/app-tokens`. `resend_otp` answers 429',
  '`otp_resend_too_soon` in the first 30 s after the payment asked for its code. Ids in examples are those of the seed',
  '(the demo merchant is #1, the demo person #1); an operation whose example cannot succeed on the demo says what it answers.',
].join('\n');

export function openApiDocument(publicUrl: string) {
  return {
    openapi: '3.1.0',
    info: { title: 'Payrail API', version: '0.1.0', description: DESCRIPTION },
    servers: [{ url: publicUrl, description: 'this Payrail (PAYRAIL_PUBLIC_URL)' }],
    components: {
      securitySchemes: {
        merchantKey: {
          type: 'http' as const,
          scheme: 'bearer',
          description: '`Authorization: Bearer <merchant key>`: `sk_sandbox_…` or `sk_live_…`; the key chooses the environment.',
        },
        adminKey: {
          type: 'http' as const,
          scheme: 'bearer',
          description:
            '`Authorization: Bearer <admin key>`: `PAYRAIL_ADMIN_KEY`, or the key in `<data dir>/admin.key` (the embedded engine). ' +
            'With `DATABASE_URL` and no `PAYRAIL_ADMIN_KEY` the admin key is off (401 `admin_key_disabled`). Every change it makes is ' +
            'in the audit log under the actor `admin-key`.',
        },
        sessionToken: {
          type: 'apiKey' as const,
          in: 'header' as const,
          name: 'session-token',
          description: 'A core banking session: `POST /api/v2/auth/login`, then `POST /api/v2/auth/login/confirm`.',
        },
        appToken: {
          type: 'apiKey' as const,
          in: 'header' as const,
          name: 'app-token',
          description: 'An internal service token: `payrail app-token create --name <name>`.',
        },
        providerJwt: {
          type: 'http' as const,
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: "`Authorization: Bearer <JWT>`: HS512, signed with the gateway's `sign_key` (spec 5.6).",
        },
      },
    },
  };
}
