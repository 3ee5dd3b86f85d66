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
