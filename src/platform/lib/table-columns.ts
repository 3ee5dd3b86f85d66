import { sql } from 'drizzle-orm';
import { timestamp } from 'drizzle-orm/pg-core';

// What the modules' schema files share: the timestamps every table keeps, and a CHECK constraint's list of values.
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));
