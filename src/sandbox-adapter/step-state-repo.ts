import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../platform/database.ts';
import { type SandboxStepState, sandboxTransactions } from './store-schema.ts';
import { findByPaymentToken, type SandboxTransaction } from './transactions-repo.ts';

export function stepStateOf(transaction: Pick<SandboxTransaction, 'stepState'>): SandboxStepState {
  const state = transaction.stepState ?? {};
  return { wrongCodes: state.wrongCodes ?? 0, resends: state.resends ?? 0 };
}

// One more wrong code or resend, counted in one conditional UPDATE while the transaction still waits (several
// processes may answer the same payment); null when it no longer does.
export async function countStepEvent(db: Db, paymentToken: string, counter: keyof SandboxStepState): Promise<SandboxTransaction | null> {
  const table = sandboxTransactions;
  const current = sql`coalesce((${table.stepState} ->> ${counter})::int, 0)`;
  const rows = await db
    .update(table)
    .set({ stepState: sql`jsonb_set(coalesce(${table.stepState}, '{}'::jsonb), ${`{${counter}}`}::text[], to_jsonb(${current} + 1))` })
    .where(and(eq(table.paymentToken, paymentToken), eq(table.status, 'pending'), gt(table.expiresAt, new Date())))
    .returning({ paymentToken: table.paymentToken });
  return rows.length === 1 ? findByPaymentToken(db, paymentToken) : null;
}
