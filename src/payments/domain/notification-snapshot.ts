import Type, { type Static, type TSchema } from 'typebox';

// What a merchant notification tells, as it was when the event happened: taken inside the event's transaction
// (flows/notification-events.ts) and stored with the outbox row (outbox.event_snapshot), so a later change of the
// payment cannot alter it. notification-body.ts turns it into the body the merchant receives.

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const SnapshotPaymentSchema = Type.Object({
  token: Type.String(),
  operationType: Type.String(),
  status: Type.String(),
  amountMinor: Type.Number(),
  currency: Type.String(),
  gatewayAmountMinor: Type.Number(),
  gatewayCurrency: Type.String(),
  extraReturnParam: Nullable(Type.String()),
  orderNumber: Nullable(Type.String()),
  cardHolder: Nullable(Type.String()),
  cardMask: Nullable(Type.String()),
  declineReason: Nullable(Type.String()),
  walletToken: Nullable(Type.String()),
  walletDisplayName: Nullable(Type.String()),
});

// The refund or dispute an event is about.
const SnapshotRecordSchema = Type.Object({
  token: Type.String(),
  status: Type.String(),
  amountMinor: Type.Number(),
  currency: Type.String(),
  declineReason: Nullable(Type.String()),
});
export type SnapshotRecord = Static<typeof SnapshotRecordSchema>;

export const SnapshotConflictSchema = Type.Object({
  id: Type.Number(),
  reportedStatus: Type.String(),
  reportedAmountMinor: Nullable(Type.Number()),
});
export type SnapshotConflict = Static<typeof SnapshotConflictSchema>;

const NotificationSnapshotSchema = Type.Object({
  kind: Type.Union([Type.Literal('payment'), Type.Literal('refund'), Type.Literal('dispute'), Type.Literal('conflict')]),
  occurredAt: Type.String(), // ISO 8601
  payment: SnapshotPaymentSchema,
  record: Nullable(SnapshotRecordSchema),
  conflict: Nullable(SnapshotConflictSchema),
});
export type NotificationSnapshot = Static<typeof NotificationSnapshotSchema>;
