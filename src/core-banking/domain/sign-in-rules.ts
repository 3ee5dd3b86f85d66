// The rules of two-step sign-in (issue 9): a password opens a pre-session that can only confirm; a 6-digit code
// sent to the person turns it into a session.

export const CONFIRMATION_CODE_DIGITS = 6;
export const WRONG_CODES_MAX = 5; // per pre-session; the next try is refused even with the right code
export const SESSION_TTL_HOURS_DEFAULT = 1; // spec 8: login time_to_live in hours, default 1
export const SESSION_TTL_HOURS_MIN = 1;
export const SESSION_TTL_HOURS_MAX = 720; // 30 days

export interface ChallengeState {
  expiresAt: Date;
  consumedAt: Date | null;
  wrongCodes: number;
}

// Why a pre-session cannot confirm any more (before its code is even looked at), or null while it still may.
export type ChallengeRefusal = 'used' | 'locked' | 'expired';

export function challengeRefusal(challenge: ChallengeState, now: Date): ChallengeRefusal | null {
  if (challenge.consumedAt !== null) return 'used';
  if (challenge.wrongCodes >= WRONG_CODES_MAX) return 'locked';
  if (challenge.expiresAt.getTime() <= now.getTime()) return 'expired';
  return null;
}

export function sessionExpiry(now: Date, ttlHours: number): Date {
  return new Date(now.getTime() + ttlHours * 3_600_000);
}
