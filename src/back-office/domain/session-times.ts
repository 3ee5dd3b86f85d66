// Limits of the dashboard's accounts (issue: idle 30 min, absolute 12 h, links of 30 min).
export const SESSION_IDLE_MS = 30 * 60_000;
export const SESSION_ABSOLUTE_MS = 12 * 3_600_000;
export const SECOND_FACTOR_WINDOW_MS = 10 * 60_000; // a signed-in password waits this long for its second factor
export const SECOND_FACTOR_ATTEMPTS_MAX = 5; // wrong codes before the half-open session ends
export const RESET_LINK_TTL_MS = 30 * 60_000; // password reset, single use
export const SIGNUP_LINK_TTL_MS = 24 * 3_600_000; // e-mail confirmation
export const INVITE_LINK_TTL_MS = 7 * 24 * 3_600_000;
export const SESSIONS_LISTED_MAX = 50;
export const TEAM_SIZE_MAX = 100;

// Whether a session is still alive at `now`: neither idle too long nor past its absolute end.
export function sessionAlive(session: { lastSeenAt: Date; expiresAt: Date; endedAt: Date | null }, now: Date): boolean {
  if (session.endedAt !== null) return false;
  if (now.getTime() >= session.expiresAt.getTime()) return false;
  return now.getTime() - session.lastSeenAt.getTime() < SESSION_IDLE_MS;
}
