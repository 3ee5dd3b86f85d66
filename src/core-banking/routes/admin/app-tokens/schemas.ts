import Type from 'typebox';
import { errorEnvelopeSchema } from '../../../../platform/lib/error-envelope-schema.ts';
import { Id } from '../../../../platform/lib/limits.ts';

export { ErrorEnvelope } from '../users/schemas.ts';

export const AppTokenNotFound = errorEnvelopeSchema({ meaning: 'no app token has this id', codes: 'not_found' });

export const AppTokenIdParams = Type.Object({ id: Id() });

export const CreateAppTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f]*$', description: 'the service that will use the token' }) },
  { additionalProperties: false, examples: [{ name: 'card-operations' }] },
);

const Nullable = (schema: ReturnType<typeof Type.String>) => Type.Union([schema, Type.Null()]);

const AppTokenSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  prefix: Type.String({ description: 'the first characters of the token, to recognise it; the token itself is shown only when created' }),
  created_at: Type.String({ format: 'date-time' }),
  last_used_at: Nullable(Type.String({ format: 'date-time' })),
  revoked_at: Nullable(Type.String({ format: 'date-time' })),
});

const APP_TOKEN_EXAMPLE = {
  id: 3,
  name: 'card-operations',
  prefix: 'app_Xq3vT9',
  created_at: '2025-01-15T09:30:00.000Z',
  last_used_at: null,
  revoked_at: null,
};

export const CreatedAppTokenEnvelope = Type.Object(
  {
    success: Type.Literal(true),
    app_token: Type.Object({
      ...AppTokenSummary.properties,
      token: Type.String({ description: 'app_…: header app-token of the internal endpoints; shown this once, kept only as a digest' }),
    }),
  },
  { examples: [{ success: true, app_token: { ...APP_TOKEN_EXAMPLE, token: 'app_Xq3vT9kLm2Rf8sWb0Yc5Hd7Jn1Pq4Zt6Ua9Ve3Gx2Ki' } }] },
);

export const AppTokenEnvelope = Type.Object(
  { success: Type.Literal(true), app_token: AppTokenSummary },
  {
    examples: [{ success: true, app_token: { ...APP_TOKEN_EXAMPLE, last_used_at: '2025-01-20T14:05:11.000Z', revoked_at: '2025-02-01T08:00:00.000Z' } }],
  },
);
export const AppTokenListEnvelope = Type.Object(
  { success: Type.Literal(true), app_tokens: Type.Array(AppTokenSummary) },
  { examples: [{ success: true, app_tokens: [{ ...APP_TOKEN_EXAMPLE, last_used_at: '2025-01-20T14:05:11.000Z' }] }] },
);
