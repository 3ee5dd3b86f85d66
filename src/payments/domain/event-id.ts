import { randomHex } from '../../platform/lib/crypto.ts';

// The id of a new merchant notification event (X-Payrail-Event-Id, the events API's id): evt_ and 32 random hex
// characters. Every place that queues an event takes its id from here; ids stored before (UUIDs) stay as they are,
// and a row without one is named evt_<outbox id> (eventIdOfRow).
export function newEventId(): string {
  return `evt_${randomHex(16)}`;
}

export function eventIdOfRow(row: { id: number; eventId: string | null }): string {
  return row.eventId ?? `evt_${row.id}`;
}

// evt_<outbox id>: the name of a row queued before event ids were kept.
const ROW_NAMED_ID_PATTERN = /^evt_([1-9]\d{0,15})$/;

export function outboxIdNamedBy(eventId: string): number | null {
  const match = ROW_NAMED_ID_PATTERN.exec(eventId);
  const id = match ? Number(match[1]) : null;
  return id !== null && Number.isSafeInteger(id) ? id : null;
}
