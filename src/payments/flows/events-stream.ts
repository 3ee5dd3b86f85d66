import type { Db } from '../../platform/database.ts';
import { decryptWithMasterKey } from '../../platform/lib/crypto.ts';
import { eventIdOfRow, outboxIdNamedBy } from '../domain/event-id.ts';
import { eventRequest } from '../domain/event-request.ts';
import { eventTypeMatches, readEventTypeFilters, type EventTypeFilter } from '../domain/event-type-filter.ts';
import { findEventRow } from '../store/events-repo.ts';
import { listEventRowsAfter, newestOutboxId, type StreamEventRow } from '../store/events-stream-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { ApiError } from '../../platform/lib/errors.ts';

const POLL_ROWS_MAX = 100;
// Outbox ids are taken at insert and committed in any order: a row stays "recent" this long, and the stream reads
// from the oldest recent row it sent, so a transaction committing within this time after its insert is not missed.
const SETTLE_MS = 10_000;

// One event as the live stream sends it: the very request the notifier makes, signed now with the merchant's key.
interface StreamedEvent {
  id: string;
  type: string | null;
  paymentToken: string;
  headers: Record<string, string>;
  body: string;
}

export interface EventFeed {
  poll(): Promise<StreamedEvent[]>; // the events queued since the last poll, at most POLL_ROWS_MAX rows' worth
}

export function readStreamTypes(text: string | undefined): EventTypeFilter[] {
  return readEventTypeFilters(text, 'types');
}

// Where a stream starts: after the named event (Last-Event-ID, ?after=) or after everything queued so far.
async function startingRow(db: Db, scope: MerchantScope, after: string | null): Promise<number> {
  if (after === null) return newestOutboxId(db);
  const row = await findEventRow(db, scope, after, outboxIdNamedBy(after));
  if (row === null) throw new ApiError('not_found', 404, `no event ${after} for this key to resume after`);
  return row.id;
}

export async function openEventFeed(
  db: Db,
  masterKey: Buffer,
  scope: MerchantScope,
  options: { after: string | null; types: EventTypeFilter[] },
): Promise<EventFeed> {
  let floorId = await startingRow(db, scope, options.after);
  const sent = new Set<number>(); // rows above floorId already sent
  const keys = new Map<string, string>(); // sealed → merchant key, for this stream's life
  const keyOf = (sealed: string) => {
    let key = keys.get(sealed);
    if (key === undefined) {
      key = decryptWithMasterKey(masterKey, sealed);
      keys.set(sealed, key);
    }
    return key;
  };
  const streamed = (row: StreamEventRow): StreamedEvent | null => {
    if (row.snapshot === null || row.merchantKeySealed === null || !eventTypeMatches(row.type, options.types)) return null;
    const id = eventIdOfRow(row);
    const request = eventRequest({ eventId: id, snapshot: row.snapshot, sequence: row.sequence }, keyOf(row.merchantKeySealed), Math.floor(Date.now() / 1000));
    return { id, type: row.type, paymentToken: row.paymentToken, headers: request.headers, body: request.bodyText };
  };
  return {
    async poll() {
      const rows = await listEventRowsAfter(db, scope, floorId, POLL_ROWS_MAX);
      const fresh = rows.filter((row) => !sent.has(row.id));
      for (const row of fresh) sent.add(row.id);
      // The floor rises over settled rows; a full page moves it past the page whatever, so a burst cannot stall it.
      const settledBefore = Date.now() - SETTLE_MS;
      const settled = rows.length === POLL_ROWS_MAX ? rows : rows.filter((row) => row.createdAt.getTime() < settledBefore);
      const lastSettled = settled.at(-1);
      if (lastSettled !== undefined) floorId = Math.max(floorId, lastSettled.id);
      for (const id of sent) if (id <= floorId) sent.delete(id);
      return fresh.flatMap((row) => streamed(row) ?? []);
    },
  };
}
