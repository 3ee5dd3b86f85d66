import { timestamp } from 'drizzle-orm/pg-core';

// The timestamps every table keeps, declared once for the modules' schema files.
export const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
