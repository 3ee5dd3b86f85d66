// The reason an operator gives when rejecting a merchant's sign-up: shown to the merchant's members as it is.

export const REVIEW_NOTE_CHARS_MAX = 500;

// Line breaks and tabs are kept (a reason may have a few lines); any other control character is refused.
function isRefusedControlCharacter(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  if (char === '\n' || char === '\r' || char === '\t') return false;
  return code < 0x20 || (code >= 0x7f && code <= 0x9f);
}

// The note as it is stored (trimmed), or the problem with it.
export function readReviewNote(reason: string): { note: string } | { problem: string } {
  const note = reason.trim();
  const chars = [...note];
  if (chars.length === 0) return { problem: 'is required: say why the sign-up is rejected' };
  if (chars.length > REVIEW_NOTE_CHARS_MAX) return { problem: `must be at most ${REVIEW_NOTE_CHARS_MAX} characters` };
  if (chars.some(isRefusedControlCharacter)) return { problem: 'must not contain control characters' };
  return { note };
}
