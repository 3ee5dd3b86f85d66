import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { MerchantScope } from '../store/payments-repo.ts';
import { listMerchantRefunds, type RefundListRow } from '../store/refund-list-repo.ts';

const REFUND_LIST_PER_PAGE_MAX = 100;

// The cursor is the id of the last refund shown, as decimal text: refunds are listed newest first by id.
const CURSOR_PATTERN = /^[1-9][0-9]{0,15}$/;

export interface RefundListQuery {
  cursor: string | null; // a nextCursor of an earlier answer
  perPage: number;
}

export interface RefundListResult {
  rows: RefundListRow[];
  perPage: number;
  nextCursor: string | null;
}

// The merchant's refunds across its payments, in one environment, newest first; one row more than shown is read to
// know whether another page follows.
export async function findMerchantRefunds(db: Db, scope: MerchantScope, query: RefundListQuery): Promise<RefundListResult> {
  const beforeId = query.cursor === null ? null : decodeRefundCursor(query.cursor);
  const perPage = Math.max(1, Math.min(query.perPage, REFUND_LIST_PER_PAGE_MAX));
  const found = await listMerchantRefunds(db, scope, beforeId, perPage + 1);
  const rows = found.slice(0, perPage);
  const last = rows.at(-1);
  return { rows, perPage, nextCursor: found.length > perPage && last ? String(last.id) : null };
}

function decodeRefundCursor(cursor: string): number {
  const id = CURSOR_PATTERN.test(cursor) ? Number(cursor) : Number.NaN;
  if (Number.isSafeInteger(id)) return id;
  throw new ApiError('invalid_cursor', 422, 'cursor is not a nextCursor this list gave', [
    { code: 'invalid_cursor', field: 'cursor', message: 'must be a nextCursor from an earlier page, unchanged' },
  ]);
}
