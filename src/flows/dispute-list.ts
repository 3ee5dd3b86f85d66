import type { DisputeStatus } from '../domain/dispute-status.ts';
import { ApiError } from '../lib/errors.ts';
import type { Db } from '../store/database.ts';
import { listDisputes, type DisputeListPosition, type DisputeRecord } from '../store/disputes-repo.ts';
import type { MerchantScope } from '../store/payments-repo.ts';

export const DISPUTE_LIST_PER_PAGE_MAX = 100;

export interface DisputeListQuery {
  status: DisputeStatus | null;
  cursor: string | null; // a nextCursor of an earlier answer
  perPage: number;
}

export interface OperatorDisputeListQuery extends DisputeListQuery {
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
  const after = query.cursor === null ? null : decodeCursor(query.cursor);
  const perPage = Math.min(query.perPage, DISPUTE_LIST_PER_PAGE_MAX);
  const page = await listDisputes(db, { merchantId: query.merchantId, environment: query.environment, status: query.status, after, limit: perPage });
  return { rows: page.rows, perPage, nextCursor: page.next && encodeCursor(page.next) };
}

// Opaque to clients: base64url of "<created_at with microseconds> <id>" of the last row shown.
const CURSOR_TEXT_PATTERN = /^((?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})(\d{3})Z ([1-9]\d{0,15})$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;

function encodeCursor(position: DisputeListPosition): string {
  return Buffer.from(`${position.createdAt} ${position.id}`).toString('base64url');
}

function decodeCursor(cursor: string): DisputeListPosition {
  const text = BASE64URL_PATTERN.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '';
  const match = CURSOR_TEXT_PATTERN.exec(text);
  if (match) {
    const [, milliseconds = '', microseconds = '', idText = ''] = match;
    const position = { createdAt: `${milliseconds}${microseconds}Z`, id: Number(idText) };
    const instant = new Date(`${milliseconds}Z`);
    const realInstant = !Number.isNaN(instant.getTime()) && instant.toISOString() === `${milliseconds}Z`;
    // Re-encoding must give the same text: one cursor per position, however base64url could spell it.
    if (realInstant && Number.isSafeInteger(position.id) && encodeCursor(position) === cursor) return position;
  }
  throw new ApiError('invalid_cursor', 422, 'cursor is not a nextCursor this API gave', [
    { code: 'invalid_cursor', field: 'cursor', message: 'must be a nextCursor from an earlier answer, unchanged' },
  ]);
}
