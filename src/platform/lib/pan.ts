const MASK_VISIBLE_HEAD = 6;
const MASK_VISIBLE_TAIL = 4;

// PAN is kept only as first 6 / last 4 (ARCHITECTURE principle 5).
export function maskPan(panDigits: string): string {
  if (!/^\d{12,19}$/.test(panDigits)) throw new Error('PAN must be 12..19 digits');
  const hidden = panDigits.length - MASK_VISIBLE_HEAD - MASK_VISIBLE_TAIL;
  return panDigits.slice(0, MASK_VISIBLE_HEAD) + '*'.repeat(hidden) + panDigits.slice(-MASK_VISIBLE_TAIL);
}
