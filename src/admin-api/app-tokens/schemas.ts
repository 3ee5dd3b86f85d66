import Type from 'typebox';

export { ErrorEnvelope } from '../users/schemas.ts';

export const AppTokenIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const CreateAppTokenBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 100, pattern: '^[^\\u0000-\\u001f]*$', description: 'the service that will use the token' }) },
  { additionalProperties: false },
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

export const CreatedAppTokenEnvelope = Type.Object({
  success: Type.Literal(true),
  app_token: Type.Object({
    ...AppTokenSummary.properties,
    token: Type.String({ description: 'app_…: header app-token of the internal endpoints; shown this once, kept only as a digest' }),
  }),
});

export const AppTokenEnvelope = Type.Object({ success: Type.Literal(true), app_token: AppTokenSummary });
export const AppTokenListEnvelope = Type.Object({ success: Type.Literal(true), app_tokens: Type.Array(AppTokenSummary) });
