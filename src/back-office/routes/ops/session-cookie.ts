import type { FastifyReply } from 'fastify';

// The console's cookies, apart from the dashboard's: __Host- (HTTPS only, this host, path /), HttpOnly, SameSite=Strict.
export const OPS_SESSION_COOKIE = '__Host-payrail_ops_session';
export const OPS_PENDING_COOKIE = '__Host-payrail_ops_signin'; // between the password and the TOTP code
const SESSION_MAX_AGE_S = 12 * 60 * 60;
const PENDING_MAX_AGE_S = 10 * 60;
const COOKIE_OPTIONS = { httpOnly: true, secure: true, sameSite: 'strict', path: '/' } as const;

export function setOpsCookie(reply: FastifyReply, name: typeof OPS_SESSION_COOKIE | typeof OPS_PENDING_COOKIE, token: string): void {
  reply.setCookie(name, token, { ...COOKIE_OPTIONS, maxAge: name === OPS_SESSION_COOKIE ? SESSION_MAX_AGE_S : PENDING_MAX_AGE_S });
}

export function clearOpsCookie(reply: FastifyReply, name: typeof OPS_SESSION_COOKIE | typeof OPS_PENDING_COOKIE): void {
  reply.clearCookie(name, COOKIE_OPTIONS);
}
