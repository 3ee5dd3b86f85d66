import { sql } from 'drizzle-orm';

// A CHECK constraint's list of allowed values, from the same constant the column's enum uses.
export const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));
