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
          description: '`Authorization: Bearer <admin key>`: `PAYRAIL_ADMIN_KEY`, or the key in `<data dir>/admin.key`.',
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
