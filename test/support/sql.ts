import type { SQL } from 'drizzle-orm';
import type { Database } from '../../src/platform/database.ts';

// Both drivers answer execute() with { rows }; the shared Db type cannot say so.
export async function queryRows<Row>(database: Database, query: SQL): Promise<Row[]> {
  const result = (await database.db.execute(query)) as { rows: Row[] };
  return result.rows;
}

// The in-process sandbox acquirer's callback poll: it runs on a timer whatever the requests do, so a test counting a
// request's statements leaves it out (on a slow machine it lands inside the counted window).
export const SANDBOX_CALLBACK_POLL = /^(update "?sandbox_transactions"? set "?callback_due_at|select .* from "?sandbox_transactions"? .*callback_due_at)/;
