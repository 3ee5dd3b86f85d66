import { COMMON_PASSWORDS } from './common-passwords.ts';

// A dashboard password: 12 to 128 characters, not a well-known one (or one with a few characters repeated),
// not the e-mail address. Null when acceptable, otherwise the reason, for the form.
const DASHBOARD_PASSWORD_LENGTH_MIN = 12;
const DASHBOARD_PASSWORD_LENGTH_MAX = 128;
const DISTINCT_CHARACTERS_MIN = 5;

const commonSet = new Set(COMMON_PASSWORDS.map((password) => password.toLowerCase()));

export function passwordProblem(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < DASHBOARD_PASSWORD_LENGTH_MIN) return `must be at least ${DASHBOARD_PASSWORD_LENGTH_MIN} characters`;
  if (length > DASHBOARD_PASSWORD_LENGTH_MAX) return `must be at most ${DASHBOARD_PASSWORD_LENGTH_MAX} characters`;
  const lowered = password.toLowerCase();
  if (commonSet.has(lowered) || commonSet.has(lowered.replace(/[0-9!@#$%^&*?.]+$/, ''))) return 'is too common: choose another';
  if (new Set(lowered).size < DISTINCT_CHARACTERS_MIN) return 'repeats too few characters: choose another';
  const localPart = email.toLowerCase().split('@')[0] ?? '';
  if (localPart.length >= 4 && lowered.includes(localPart)) return 'must not contain your e-mail address';
  return null;
}
