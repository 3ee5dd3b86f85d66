import type { SQL } from 'drizzle-orm';
import type { Database } from '../../src/platform/database.ts';

// Both drivers answer execute() with { rows }; the shared Db type cannot say so.
export async function queryRows<Row>(database: Database, query: SQL): Promise<Row[]> {
  const result = (await database.db.execute(query)) as { rows: Row[] };
  return result.rows;
}
