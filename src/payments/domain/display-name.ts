// What the hosted checkout shows the customer instead of the merchant's name (page title and header).

export const DISPLAY_NAME_CHARS_MAX = 100;
// Not only spaces, no control characters (the admin API's schema holds the same pattern).
export const DISPLAY_NAME_PATTERN = '^(?=.*\\S)[^\\u0000-\\u001f\\u007f-\\u009f]*$';
const displayNamePattern = new RegExp(DISPLAY_NAME_PATTERN, 'u');

// A name as typed into a form: blank means "show the name" (null); otherwise the trimmed text or its problem.
export function readDisplayName(text: string): { displayName: string | null } | { problem: string } {
  const displayName = text.trim();
  if (displayName === '') return { displayName: null };
  if ([...displayName].length > DISPLAY_NAME_CHARS_MAX) return { problem: `must be at most ${DISPLAY_NAME_CHARS_MAX} characters` };
  if (!displayNamePattern.test(displayName)) return { problem: 'must not contain control characters' };
  return { displayName };
}
