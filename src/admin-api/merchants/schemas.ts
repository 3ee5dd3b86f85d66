import Type from 'typebox';

export const MerchantIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const KeyRotationParams = Type.Object({
  id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }),
  environment: Type.Union([Type.Literal('sandbox'), Type.Literal('production')]),
});

export const CreateMerchantBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 255, pattern: '^[^\\u0000-\\u001f]*$' }) },
  { additionalProperties: false },
);

export const MerchantListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 }),
    perPage: Type.Integer({ minimum: 1, maximum: 500, default: 50 }),
  },
  { additionalProperties: false },
);

const KeySummary = Type.Object({
  environment: Type.String(),
  prefix: Type.String({ description: 'the first characters of the key, to recognise it; the key itself is shown only when issued' }),
  rotated_at: Type.String({ format: 'date-time' }),
});

const MerchantSummary = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  status: Type.String({ description: 'active | disabled' }),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  keys: Type.Array(KeySummary),
});

export const CreatedMerchantEnvelope = Type.Object({
  success: Type.Literal(true),
  merchant: Type.Object({
    id: Type.Integer(),
    name: Type.String(),
    sandbox_key: Type.String(),
    production_key: Type.String(),
  }),
});

export const MerchantEnvelope = Type.Object({ success: Type.Literal(true), merchant: MerchantSummary });

export const MerchantListEnvelope = Type.Object({
  success: Type.Literal(true),
  totalCount: Type.Integer(),
  page: Type.Integer(),
  perPage: Type.Integer(),
  merchants: Type.Array(MerchantSummary),
});

export const RotatedKeyEnvelope = Type.Object({
  success: Type.Literal(true),
  merchant_id: Type.Integer(),
  environment: Type.String(),
  key: Type.String({ description: 'the new key; the old one stopped working' }),
});
