// Whether a customer has seen a payment's result page before (issue 19): the "already complete" line is for a
// repeat visit only, never for the first view of the result. A cookie scoped to the payment's own path remembers
// it; it holds no data beyond "seen" and is sent nowhere else.

const SEEN_COOKIE_NAME = 'payrail_result_seen';
const SEEN_COOKIE_MAX_AGE_S = 30 * 24 * 60 * 60; // a link reopened within a month still reads as a repeat visit
const COOKIE_HEADER_LENGTH_MAX = 8192; // longer headers are not searched (Node caps all headers at 16 KiB anyway)

export function hasSeenResult(cookieHeader: string | undefined): boolean {
  const header = (cookieHeader ?? '').slice(0, COOKIE_HEADER_LENGTH_MAX);
  return header.split(';').some((pair) => pair.trim() === `${SEEN_COOKIE_NAME}=1`);
}

// The Set-Cookie value for the result page of /checkout/<token>: its return and status pages share the path.
export function seenResultCookie(token: string, secure: boolean): string {
  const attributes = [`${SEEN_COOKIE_NAME}=1`, `Path=/checkout/${token}`, `Max-Age=${SEEN_COOKIE_MAX_AGE_S}`, 'HttpOnly', 'SameSite=Lax'];
  return (secure ? [...attributes, 'Secure'] : attributes).join('; ');
}
