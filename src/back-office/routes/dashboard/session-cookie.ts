import type { FastifyReply } from 'fastify';

// The session cookie: __Host- (HTTPS only, this host, path /), HttpOnly, SameSite=Strict. The browser keeps it for
// the session's absolute life at most; the server ends it earlier (idle, logout, revocation).
export const SESSION_COOKIE = '__Host-payrail_session';
const COOKIE_MAX_AGE_S = 12 * 60 * 60;

export function setSessionCookie(reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, { httpOnly: true, secure: true, sameSite: 'strict', path: '/', maxAge: COOKIE_MAX_AGE_S });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, secure: true, sameSite: 'strict', path: '/' });
}
