import Type, { type Static } from 'typebox';
import { csvLine } from '../back-office/index.ts';
import { answerPart } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface AuditCommandOptions {
  subject?: string | undefined;
  actor?: string | undefined;
  action?: string | undefined;
  from?: string | undefined;
  to?: string | undefined;
  limit?: string | undefined;
  csv: boolean;
  json: boolean;
}

const PAGE_SIZE = 500;
const DEFAULT_LIMIT = 50;
const Event = Type.Object({
  id: Type.Number(),
  occurred_at: Type.String(),
  actor: Type.String(),
  action: Type.String(),
  subject_type: Type.String(),
  subject_id: Type.String(),
  before: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  after: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  request_id: Type.Union([Type.String(), Type.Null()]),
  ip_address: Type.Union([Type.String(), Type.Null()]),
});
type AuditEvent = Static<typeof Event>;
const CSV_HEADER = ['id', 'occurred_at', 'actor', 'action', 'subject_type', 'subject_id', 'before', 'after', 'request_id', 'ip_address'];

// payrail audit [--subject merchant:12] [--actor operator:3] [--action merchant.approve] [--from] [--to] [--limit N|all] [--csv]
// Newest first, page by page over GET /audit-events; --limit all reads to the end.
export async function runAuditCommand(client: AdminClient, options: AuditCommandOptions, print: (line: string) => void): Promise<void> {
  const limit = limitOf(options.limit);
  if (options.csv) print(csvLine(CSV_HEADER).trimEnd());
  let cursor: string | null = null;
  let printed = 0;
  do {
    const query = new URLSearchParams();
    for (const name of ['subject', 'actor', 'action', 'from', 'to'] as const) {
      const value = options[name];
      if (value) query.set(name, value);
    }
    query.set('limit', String(Math.min(PAGE_SIZE, limit - printed)));
    if (cursor !== null) query.set('cursor', cursor);
    const answer = await client.call('GET', `/audit-events?${query}`);
    const events = answerPart(answer, 'events', Type.Array(Event));
    for (const event of events) print(lineOf(event, options));
    printed += events.length;
    cursor = answerPart(answer, 'next_cursor', Type.Union([Type.String(), Type.Null()]));
  } while (cursor !== null && printed < limit);
}

function limitOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  if (text === 'all') return Number.MAX_SAFE_INTEGER;
  const limit = Number(text);
  if (!Number.isSafeInteger(limit) || limit < 1) throw new CliError('--limit is a positive number of events, or all');
  return limit;
}

function lineOf(event: AuditEvent, options: AuditCommandOptions): string {
  if (options.json) return JSON.stringify(event);
  const json = (fields: Record<string, unknown> | null) => (fields === null ? null : JSON.stringify(fields));
  if (options.csv) {
    const values = [event.id, event.occurred_at, event.actor, event.action, event.subject_type, event.subject_id, json(event.before), json(event.after)];
    return csvLine([...values, event.request_id, event.ip_address]).trimEnd();
  }
  const change = event.before === null && event.after === null ? '' : ` ${json(event.before) ?? '–'} → ${json(event.after) ?? '–'}`;
  return `${event.occurred_at} #${event.id} ${event.actor} ${event.action} ${event.subject_type}:${event.subject_id}${change}`;
}
