import Type from 'typebox';

export const AuditEventsQuery = Type.Object(
  {
    subject: Type.Optional(Type.String({ maxLength: 130, description: 'a subject type (`merchant`) or a type and an id (`merchant:12`, `payment:345`)' })),
    actor: Type.Optional(
      Type.String({ maxLength: 60, description: '`operator:<id>`, `member:<id>`, `key:<merchant key prefix>`, `admin-key` or `system:<worker>`' }),
    ),
    action: Type.Optional(Type.String({ maxLength: 90, description: 'e.g. `merchant.approve`, `payment.status_changed`, `operator.sign_in`' })),
    from: Type.Optional(Type.String({ maxLength: 40, description: 'events at or after this time (ISO 8601)' })),
    to: Type.Optional(Type.String({ maxLength: 40, description: 'events before this time (ISO 8601)' })),
    cursor: Type.Optional(Type.String({ maxLength: 20, description: 'the `next_cursor` of the page before' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
  },
  { additionalProperties: false },
);

export const AuditEventsCsvQuery = Type.Omit(AuditEventsQuery, ['cursor', 'limit']);

const ChangedFields = Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()], {
  description: 'the changed fields of the subject (secrets as "[redacted]"); null when there is no such side (a creation has no before)',
});

const AuditEvent = Type.Object({
  id: Type.Integer(),
  occurred_at: Type.String({ format: 'date-time' }),
  actor: Type.String(),
  action: Type.String(),
  subject_type: Type.String(),
  subject_id: Type.String(),
  before: ChangedFields,
  after: ChangedFields,
  request_id: Type.Union([Type.String(), Type.Null()]),
  ip_address: Type.Union([Type.String(), Type.Null()]),
});

export const AuditEventsPage = Type.Object(
  {
    success: Type.Literal(true),
    events: Type.Array(AuditEvent),
    next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'pass as `cursor` for the next (older) page; null on the last' }),
  },
  {
    examples: [
      {
        success: true,
        events: [
          {
            id: 812,
            occurred_at: '2026-11-28T10:15:02.113Z',
            actor: 'operator:3',
            action: 'merchant.approve',
            subject_type: 'merchant',
            subject_id: '12',
            before: { review_status: 'pending_review', reviewed_at: null },
            after: { review_status: 'approved', reviewed_at: '2026-11-28T10:15:02.113+00:00' },
            request_id: '6f1c0b3e-4c55-4a53-9a62-0d5f8c7f3b21',
            ip_address: '203.0.113.7',
          },
        ],
        next_cursor: null,
      },
    ],
  },
);
