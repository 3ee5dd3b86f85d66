import { ApiError } from '../../platform/lib/errors.ts';

// The events list's keyset cursor: the outbox id of the last event shown (events are listed by id, newest first).
// Opaque to clients: base64url of "evt <id>".
const CURSOR_TEXT_PATTERN = /^evt ([1-9]\d{0,15})$/;
const BASE64URL_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export function encodeEventCursor(outboxId: number): string {
  return Buffer.from(`evt ${outboxId}`).toString('base64url');
}

export function decodeEventCursor(cursor: string): number {
  const text = BASE64URL_PATTERN.test(cursor) ? Buffer.from(cursor, 'base64url').toString('latin1') : '';
  const idText = CURSOR_TEXT_PATTERN.exec(text)?.[1];
  const id = idText === undefined ? null : Number(idText);
  // Re-encoding must give the same text: one cursor per position, however base64url could spell it.
  if (id !== null && Number.isSafeInteger(id) && encodeEventCursor(id) === cursor) return id;
  throw new ApiError('invalid_cursor', 422, 'cursor is not a nextCursor this API gave', [
    { code: 'invalid_cursor', field: 'cursor', message: 'must be a nextCursor from an earlier answer, unchanged' },
  ]);
}
