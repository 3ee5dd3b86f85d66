import { ApiError } from '../../platform/lib/errors.ts';

// What the events API and the live stream select by type: an exact type (payment.approved) or every type of a
// family (payment.*). Types are <family>.<status> (outbox.event_type, computed by the database from the snapshot).
export type EventTypeFilter = { exact: string } | { family: string };

const EVENT_TYPE_FILTERS_MAX = 10; // ?types=a,b,… of the stream
const EXACT_PATTERN = /^[a-z]{1,20}\.[a-z_]{1,30}$/;
const FAMILY_PATTERN = /^([a-z]{1,20})\.\*$/;

export function readEventTypeFilter(text: string, field: string): EventTypeFilter {
  if (EXACT_PATTERN.test(text)) return { exact: text };
  const family = FAMILY_PATTERN.exec(text)?.[1];
  if (family !== undefined) return { family };
  throw new ApiError('invalid_field', 422, `${field} must be an event type like payment.approved, or a family like payment.*`, [
    { code: 'invalid_field', field, message: 'an event type (payment.approved) or a family (payment.*)' },
  ]);
}

// A comma-separated list (the stream's ?types=); empty: every type.
export function readEventTypeFilters(text: string | undefined, field: string): EventTypeFilter[] {
  if (text === undefined || text === '') return [];
  const parts = text.split(',');
  if (parts.length > EVENT_TYPE_FILTERS_MAX) {
    throw new ApiError('invalid_field', 422, `${field} lists at most ${EVENT_TYPE_FILTERS_MAX} types`, [
      { code: 'invalid_field', field, message: `at most ${EVENT_TYPE_FILTERS_MAX} types` },
    ]);
  }
  return parts.map((part) => readEventTypeFilter(part.trim(), field));
}

export function eventTypeMatches(type: string | null, filters: readonly EventTypeFilter[]): boolean {
  if (filters.length === 0) return true;
  if (type === null) return false;
  return filters.some((filter) => ('exact' in filter ? type === filter.exact : type.startsWith(`${filter.family}.`)));
}
