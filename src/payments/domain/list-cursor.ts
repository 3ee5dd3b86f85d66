import { ApiError } from '../../platform/lib/errors.ts';

// Keyset pagination of the merchant lists (payments, disputes): a place in their order (created_at DESC, id DESC),
// createdAt in ISO 8601 UTC with microseconds, as stored.
interface ListPosition {
  createdAt: string;
  id: number;
}

// Opaque to clients: base64url of "<created_at with microseconds> <id>" of the last row shown.
const CURSOR_TEXT_PATTERN = /^((?!0000)\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3})(\d{3})Z ([1-9]\d{0,15})$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]+$/;

export function encodeListCursor(position: ListPosition): string {
  return Buffer.from(`${position.createdAt} ${position.id}`).toString('base64url');
}

export function decodeListCursor(cursor: string): ListPosition {
  const text = BASE64URL_PATTERN.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '';
  const match = CURSOR_TEXT_PATTERN.exec(text);
  if (match) {
    const [, milliseconds = '', microseconds = '', idText = ''] = match;
    const position = { createdAt: `${milliseconds}${microseconds}Z`, id: Number(idText) };
    const instant = new Date(`${milliseconds}Z`);
    const realInstant = !Number.isNaN(instant.getTime()) && instant.toISOString() === `${milliseconds}Z`;
    // Re-encoding must give the same text: one cursor per position, however base64url could spell it.
    if (realInstant && Number.isSafeInteger(position.id) && encodeListCursor(position) === cursor) return position;
  }
  throw new ApiError('invalid_cursor', 422, 'cursor is not a nextCursor this API gave', [
    { code: 'invalid_cursor', field: 'cursor', message: 'must be a nextCursor from an earlier answer, unchanged' },
  ]);
}
