import type { payments } from './schema.ts';

// What may change beside the status; the status itself changes only through a status change (status-writer.ts).
export type PaymentChanges = Omit<Partial<typeof payments.$inferInsert>, 'id' | 'status' | 'finalizedAt' | 'createdAt' | 'updatedAt'>;
