import Type from 'typebox';

// The schema of the error envelope every failure answers with (errors.ts), for a route's OpenAPI responses: the
// shape is one; what a route says of its codes, its fields and what a failure left behind is its own.
export function errorEnvelopeSchema(texts: { meaning: string; codes?: string; field?: string }) {
  return Type.Object(
    {
      success: Type.Literal(false),
      result: Type.Literal(1),
      status: Type.Integer({ description: 'the HTTP status again' }),
      errors: Type.Array(
        Type.Object({
          code: Type.String(texts.codes === undefined ? {} : { description: texts.codes }),
          message: Type.String(),
          field: Type.Optional(Type.String(texts.field === undefined ? {} : { description: texts.field })),
        }),
      ),
    },
    { description: texts.meaning },
  );
}

// spec 7.2's envelope, which the core banking API answers every failure with (core-errors.ts).
export function coreErrorEnvelopeSchema(texts: { meaning: string; codes?: string }) {
  const nullableText = (description: string) => Type.Union([Type.String(), Type.Null()], { description });
  return Type.Object(
    {
      success: Type.Literal(false),
      status: Type.Integer({ description: 'the HTTP status again' }),
      errors: Type.Array(
        Type.Object(
          {
            code: Type.String(texts.codes === undefined ? {} : { description: texts.codes }),
            kind: nullableText('what failed: session, app_token, validation, profile, rate_limit, not_found, …'),
            expiration: nullableText("the session's expiry (ISO 8601) when the failure is about a session"),
            session: nullableText('the session the failure is about, when there is one'),
            message: Type.String(),
            field: Type.Optional(Type.String({ description: 'the request field at fault' })),
          },
          { additionalProperties: true },
        ),
      ),
    },
    { description: texts.meaning },
  );
}
