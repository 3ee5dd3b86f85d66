import type { DisputeStatus } from '../domain/dispute-status.ts';
import { decodeListCursor, encodeListCursor } from '../domain/list-cursor.ts';
import type { Db } from '../../platform/database.ts';
import { listDisputes, type DisputeRecord } from '../store/disputes-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

export const DISPUTE_LIST_PER_PAGE_MAX = 100;

export interface DisputeListQuery {
  status: DisputeStatus | null;
  cursor: string | null; // a nextCursor of an earlier answer
  perPage: number;
}

export interface OperatorDisputeListQuery extends Omit<DisputeListQuery, 'status'> {
  status: DisputeStatus | readonly DisputeStatus[] | null; // several: any of them (the console's queue: open and under review)
  merchantId: number | null;
  environment: MerchantScope['environment'] | null;
}

export interface DisputeListResult {
  rows: DisputeRecord[];
  perPage: number;
  nextCursor: string | null;
}

// The merchant's disputes of the key's environment, newest first.
export async function findMerchantDisputes(db: Db, scope: MerchantScope, query: DisputeListQuery): Promise<DisputeListResult> {
  return findDisputes(db, { ...query, merchantId: scope.merchantId, environment: scope.environment });
}

// Every merchant's disputes, for operators, newest first.
export async function findOperatorDisputes(db: Db, query: OperatorDisputeListQuery): Promise<DisputeListResult> {
  return findDisputes(db, query);
}

async function findDisputes(db: Db, query: OperatorDisputeListQuery): Promise<DisputeListResult> {
  const after = query.cursor === null ? null : decodeListCursor(query.cursor);
  const perPage = Math.min(query.perPage, DISPUTE_LIST_PER_PAGE_MAX);
  const statuses = query.status === null ? null : typeof query.status === 'string' ? [query.status] : query.status;
  if (statuses !== null && statuses.length === 0) return { rows: [], perPage, nextCursor: null };
  const page = await listDisputes(db, { merchantId: query.merchantId, environment: query.environment, statuses, after, limit: perPage });
  return { rows: page.rows, perPage, nextCursor: page.next && encodeListCursor(page.next) };
}
