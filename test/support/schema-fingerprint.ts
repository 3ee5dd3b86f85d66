import { sql } from 'drizzle-orm';
import type { Database } from '../../src/platform/database.ts';

// What a test may change in a database beyond its rows: the public schema's tables, columns, constraints, indexes,
// sequences and functions, and every user trigger (with whether it is enabled). A pooled PGlite whose fingerprint
// differs from the migrated image's is not handed to the next file: a trigger or a dropped constraint left behind
// would make that file fail, or pass without the rule it means to test.
const FINGERPRINT = sql`
  select md5(coalesce(string_agg(entry, ',' order by entry), '')) as fingerprint from (
    select 'class ' || c.relname || ' ' || c.relkind::text as entry
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'public'
    union all
    select 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text
      from pg_attribute a join pg_class c on c.oid = a.attrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and a.attnum > 0 and not a.attisdropped
    union all
    select 'constraint ' || conname || ' ' || pg_get_constraintdef(c.oid)
      from pg_constraint c join pg_namespace n on n.oid = c.connamespace where n.nspname = 'public'
    union all
    select 'trigger ' || tgname || ' ' || tgrelid::regclass::text || ' ' || tgenabled::text from pg_trigger where not tgisinternal
    union all
    select 'function ' || p.oid::regprocedure::text
      from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname = 'public'
  ) entries`;

export async function schemaFingerprint(database: Database): Promise<string> {
  const found = await database.db.execute<{ fingerprint: string }>(FINGERPRINT);
  const rows = 'rows' in found ? found.rows : found;
  const fingerprint = rows[0]?.fingerprint;
  if (typeof fingerprint !== 'string') throw new Error('no schema fingerprint');
  return fingerprint;
}
