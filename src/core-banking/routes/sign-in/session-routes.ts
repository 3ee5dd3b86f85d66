import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CoreSession } from '../../flows/core-auth.ts';
import { endEverySession, endSessionChain, issueFollowingSession } from '../../flows/core-sessions.ts';
import { CompleteAnswer, CompleteBody, LogoutAllAnswer, LogoutAnswer, ProfileDisabled, SessionAnswer, SessionError, SessionRequired } from './schemas.ts';

const tags = ['core banking: sign-in'];
const security = [{ sessionToken: [] }];

// The scope's hook authenticated the session before any handler runs.
const sessionOf = (request: FastifyRequest): CoreSession => {
  if (request.coreSession === null) throw new Error('session scope without a session');
  return request.coreSession;
};

// What a signed-in person does with the session itself (the session scope: header session-token).
export async function sessionSignInRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.payrail.database;

  routes.post(
    '/api/v1/auth/login/complete',
    {
      schema: {
        operationId: 'coreCompleteLogin',
        summary: 'Legacy sign-in: a new session with the lifetime asked for',
        description:
          'Takes a live session (header session-token; never a pre-session, so the confirmation code is never bypassed) ' +
          'and issues a further session of the same person for time_to_live hours (at most 720), never past the expiry of the ' +
          'presented session, which stays as it was. Both belong to the same sign-in: logout ends them together.',
        tags,
        security,
        body: CompleteBody,
        response: { 200: CompleteAnswer, 401: SessionRequired, 403: ProfileDisabled, 422: SessionError, 429: SessionError },
      },
    },
    async (request) => {
      const issued = await issueFollowingSession(db, sessionOf(request), request.body.time_to_live);
      return {
        success: true as const,
        status: 200 as const,
        message: 'signed in',
        expiration: issued.expiresAt.toISOString(),
        session: issued.sessionToken,
      };
    },
  );

  routes.post(
    '/api/v1/auth/logout',
    {
      schema: {
        operationId: 'coreLogout',
        summary: 'Sign out: the sign-in of the session stops working at once',
        description:
          'Needs a live session (header session-token). Revokes the presented session together with its whole sign-in: the session ' +
          'it was issued from (login/complete) and every session issued from any of them. The other sign-ins of the person stay.',
        tags,
        security,
        response: { 200: LogoutAnswer, 401: SessionRequired, 403: ProfileDisabled, 429: SessionError },
      },
    },
    async (request) => {
      await endSessionChain(db, sessionOf(request));
      return { success: true as const, status: 200 as const, message: 'signed out' };
    },
  );

  routes.post(
    '/api/v1/auth/logout_all',
    {
      schema: {
        operationId: 'coreLogoutAll',
        summary: 'Sign out everywhere: every session of the person stops working at once',
        description: 'Needs a live session (header session-token). Revokes every session of its person, from every sign-in and device.',
        tags,
        security,
        response: { 200: LogoutAllAnswer, 401: SessionRequired, 403: ProfileDisabled, 429: SessionError },
      },
    },
    async (request) => {
      const ended = await endEverySession(db, sessionOf(request));
      return { success: true as const, status: 200 as const, message: 'signed out everywhere', sessions_ended: ended };
    },
  );

  routes.get(
    '/api/v1/auth/session',
    {
      schema: {
        operationId: 'coreGetSession',
        summary: 'The session presented: whose it is and when it expires',
        description: 'Needs a live session (header session-token). Tells whose the session is and when it expires; it changes nothing.',
        tags,
        security,
        response: { 200: SessionAnswer, 401: SessionRequired, 403: ProfileDisabled, 429: SessionError },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return {
        success: true as const,
        status: 200 as const,
        session: String(session.sessionId),
        user_id: session.userId,
        expiration: session.expiresAt.toISOString(),
      };
    },
  );
}
