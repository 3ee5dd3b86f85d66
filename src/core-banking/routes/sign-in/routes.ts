import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { confirmLogin } from '../../flows/login-confirm.ts';
import { SignInThrottledError, startLogin } from '../../flows/login-start.ts';
import { clientAddressOf } from '../../../platform/lib/rate-limits.ts';
import { ConfirmAnswer, ConfirmBody, LoginAnswer, LoginBody, PreSessionRefused, ProfileDisabled, SignInError, SignInThrottled } from './schemas.ts';

const tags = ['core banking: sign-in'];

// Two-step sign-in: a password opens a pre-session, the code sent for it opens a session (issue 9, spec 5.3).
export async function signInRoutes(app: FastifyInstance): Promise<void> {
  const routes = app.withTypeProvider<TypeBoxTypeProvider>();
  const context = app.payrail;

  routes.post(
    '/api/v2/auth/login',
    {
      schema: {
        operationId: 'coreLogin',
        summary: 'Sign in, step one: the password opens a pre-session and a code is sent',
        description:
          'Public: no credential. Always answers 200 with a pre-session token (pre_…), whether or not the login names an account and the password is ' +
          'right; only then is a 6-digit code sent (by e-mail, or to the service log and `payrail outbox` without SMTP). A ' +
          'wrong login fails later, at confirmation, exactly like a wrong code. Attempts are limited per login from one IP (10 in 15 minutes), ' +
          'per login from all IPs (100) and per IP (30), all configurable; beyond, 429 with Retry-After (seconds).',
        tags,
        body: LoginBody,
        response: { 200: LoginAnswer, 422: SignInError, 429: SignInThrottled },
      },
    },
    async (request, reply) => {
      const started = await startLogin(context, { login: request.body.login, password: request.body.password, clientIp: clientAddressOf(request.ip) }).catch(
        (error: unknown) => {
          if (error instanceof SignInThrottledError) reply.header('retry-after', String(error.retryAfterS));
          throw error;
        },
      );
      return {
        success: true as const,
        status: 200 as const,
        session_token: started.preSessionToken,
        expiration: started.expiresAt.toISOString(),
        method: started.method,
      };
    },
  );

  routes.post(
    '/api/v2/auth/login/confirm',
    {
      schema: {
        operationId: 'coreConfirmLogin',
        summary: 'Sign in, step two: the confirmation code opens a session',
        description:
          'Header session-token carries the pre-session token of POST /api/v2/auth/login. The code is valid for 5 minutes ' +
          '(PAYRAIL_SIGN_IN_CODE_TTL_S); a pre-session takes at most 5 wrong codes, then refuses even the right one; it ' +
          'opens one session at most, living time_to_live hours (default 1, at most 720). confirmed false calls the sign-in off.',
        tags,
        security: [{ sessionToken: [] }],
        body: ConfirmBody,
        response: { 200: ConfirmAnswer, 401: PreSessionRefused, 403: ProfileDisabled, 422: SignInError, 429: SignInError },
      },
    },
    async (request) => {
      const header = request.headers['session-token'];
      const { body } = request;
      const signedIn = await confirmLogin(context, {
        preSessionToken: typeof header === 'string' ? header : undefined,
        confirmationCode: body.confirmation_code,
        ttlHours: body.time_to_live,
        confirmed: body.confirmed,
        method: body.method,
      });
      return {
        success: true as const,
        status: 200 as const,
        session_token: signedIn.sessionToken,
        session: String(signedIn.sessionId),
        expiration: signedIn.expiresAt.toISOString(),
        wallet_type: signedIn.user.walletType,
        current_currency: signedIn.user.currentCurrency,
        country: signedIn.user.country,
        method: signedIn.method,
        user_id: signedIn.user.id,
      };
    },
  );
}
