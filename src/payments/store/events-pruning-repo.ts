import { sql } from 'drizzle-orm';
import type { Db } from '../../platform/database.ts';

// Deletes up to batchMax done notification rows created before `before`, with their delivery attempts, in one
// statement. A payment's newest row (highest sequence, then id) always stays: the next sequence is the greater of the
// payment's counter and its highest queued one, plus one (notification-events-repo.ts), and a payment notified before
// the counter (migration 0020) would start over without it. Rows another transaction holds are left for later.
export async function deletePrunableEvents(db: Db, before: Date, batchMax: number): Promise<number> {
  const result = await db.execute(sql`
    with doomed as (
      select o.id, o.payment_id, coalesce(o.event_id, 'evt_' || o.id) as event_id
      from outbox o
      where o.topic = 'notification' and o.done_at is not null and o.created_at < ${before.toISOString()}::timestamptz
        and exists (select 1 from outbox later
          where later.payment_id = o.payment_id and later.topic = 'notification' and later.id <> o.id
            and (coalesce(later.event_sequence, 0) > coalesce(o.event_sequence, 0)
              or (coalesce(later.event_sequence, 0) = coalesce(o.event_sequence, 0) and later.id > o.id)))
      order by o.id
      limit ${batchMax}
      for update of o skip locked
    ), attempts_deleted as (
      delete from notification_attempts a using doomed d where a.payment_id = d.payment_id and a.event_id = d.event_id
    )
    delete from outbox o using doomed d where o.id = d.id
    returning o.id`);
  return result.rows.length;
}
