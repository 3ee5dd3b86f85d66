import Type from 'typebox';
import { PASSWORD_LENGTH_MAX } from '../../../platform/lib/password-hash.ts';
import { SESSION_TTL_HOURS_DEFAULT, SESSION_TTL_HOURS_MAX, SESSION_TTL_HOURS_MIN } from '../../domain/sign-in-rules.ts';
import { coreErrorEnvelopeSchema } from '../../../platform/lib/error-envelope-schema.ts';

export const SignInError = coreErrorEnvelopeSchema({
  meaning: 'a failure (spec 7.2); a wrong password, an unknown login and a wrong code all fail the same way',
  codes:
    'session_required, session_invalid, pre_session_used, too_many_wrong_codes, confirmation_code_expired, confirmation_code_invalid, ' +
    'sign_in_cancelled, too_many_sign_in_attempts, profile_disabled, invalid_field, …',
});

export const SessionRequired = coreErrorEnvelopeSchema({
  meaning: 'header session-token is missing, or names no live session: sign in again',
  codes: 'session_required, session_invalid, session_revoked, session_expired',
});

export const ProfileDisabled = coreErrorEnvelopeSchema({ meaning: "the session's profile is disabled", codes: 'profile_disabled' });

export const PreSessionRefused = coreErrorEnvelopeSchema({
  meaning:
    'the pre-session is missing, unknown, expired or used, or the code is wrong or expired (an unknown login and a wrong password fail here too, like a wrong code)',
  codes: 'session_required, session_invalid, pre_session_used, too_many_wrong_codes, confirmation_code_expired, confirmation_code_invalid, sign_in_cancelled',
});

export const SignInThrottled = coreErrorEnvelopeSchema({
  meaning: 'too many sign-in attempts for this login (from this IP address, or from all) or from this IP address: wait the seconds of header Retry-After',
  codes: 'too_many_sign_in_attempts, rate_limited',
});

export const SessionError = coreErrorEnvelopeSchema({
  meaning: 'a failure (spec 7.2)',
  codes: 'session_required, session_invalid, session_revoked, session_expired, profile_disabled, invalid_field, rate_limited',
});

const TimeToLive = Type.Integer({
  minimum: SESSION_TTL_HOURS_MIN,
  maximum: SESSION_TTL_HOURS_MAX,
  default: SESSION_TTL_HOURS_DEFAULT,
  description: `the session's lifetime in hours (spec 8: default ${SESSION_TTL_HOURS_DEFAULT}), at most ${SESSION_TTL_HOURS_MAX}`,
});
const Expiration = Type.String({ format: 'date-time', description: 'when the token stops working (ISO 8601)' });

export const LoginBody = Type.Object(
  {
    login: Type.String({ minLength: 1, maxLength: 320, description: 'the e-mail address or phone number (+ and digits) of the profile' }),
    // No minimum here: a too short password is simply a wrong one, answered like any other.
    password: Type.String({ minLength: 1, maxLength: PASSWORD_LENGTH_MAX }),
  },
  { additionalProperties: false, examples: [{ login: 'ada@example.com', password: 'correct horse battery staple' }] },
);

export const LoginAnswer = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    session_token: Type.String({ description: 'pre_…: a pre-session that can only confirm (header session-token of /api/v2/auth/login/confirm)' }),
    expiration: Expiration,
    method: Type.String({ description: 'how the confirmation code travels: email, or log (development: the service log and `payrail outbox`)' }),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        session_token: 'pre_Kd8sT2vQ9xLm4RbW7nYc1HfJ6pZa3GuE0oVi5NtB8wM',
        expiration: '2025-01-15T09:35:00.000Z',
        method: 'email',
      },
    ],
  },
);

export const ConfirmBody = Type.Object(
  {
    confirmation_code: Type.String({ pattern: '^[0-9]{6}$', description: 'the 6-digit code sent for the pre-session' }),
    time_to_live: TimeToLive,
    confirmed: Type.Boolean({ default: true, description: 'false calls the sign-in off: the pre-session is closed and no session opened' }),
    method: Type.Union([Type.String({ pattern: '^[a-z0-9_]{1,32}$' }), Type.Null()], {
      default: null,
      description: "the second factor the client used, kept with the session; null: the code's delivery channel",
    }),
  },
  { additionalProperties: false, examples: [{ confirmation_code: '482913', time_to_live: 24, confirmed: true, method: null }] },
);

export const ConfirmAnswer = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    session_token: Type.String({ description: 'ses_…: header session-token of the user endpoints' }),
    session: Type.String({ description: "the session's public id (for logs and support; not a credential)" }),
    expiration: Expiration,
    wallet_type: Type.String(),
    current_currency: Type.String(),
    country: Type.Union([Type.String(), Type.Null()]),
    method: Type.Union([Type.String(), Type.Null()]),
    user_id: Type.Integer(),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        session_token: 'ses_Hq2Wm7Xv4Nc9Lb1Rt6Yk3Pd8Zf0Sa5Gj2Ue7Oi4Vn1B',
        session: '381',
        expiration: '2025-01-16T09:31:00.000Z',
        wallet_type: 'personal',
        current_currency: 'EUR',
        country: 'GB',
        method: 'email',
        user_id: 42,
      },
    ],
  },
);

export const CompleteBody = Type.Object({ time_to_live: TimeToLive }, { additionalProperties: false, examples: [{ time_to_live: 720 }] });

export const CompleteAnswer = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    message: Type.String(),
    expiration: Expiration,
    session: Type.String({ description: 'ses_…: the new session token (header session-token)' }),
  },
  {
    examples: [
      {
        success: true,
        status: 200,
        message: 'signed in',
        expiration: '2025-02-14T09:40:00.000Z',
        session: 'ses_Tb5Ny1Qw8Zk3Mc6Xr0Lv9Hd2Jg4Pf7Sa1Eu3Oi6Wm8C',
      },
    ],
  },
);

export const LogoutAnswer = Type.Object(
  { success: Type.Literal(true), status: Type.Literal(200), message: Type.String() },
  { examples: [{ success: true, status: 200, message: 'signed out' }] },
);

export const LogoutAllAnswer = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    message: Type.String(),
    sessions_ended: Type.Integer({ minimum: 1, description: 'how many live sessions were revoked, the presented one included' }),
  },
  { examples: [{ success: true, status: 200, message: 'signed out everywhere', sessions_ended: 3 }] },
);

export const SessionAnswer = Type.Object(
  {
    success: Type.Literal(true),
    status: Type.Literal(200),
    session: Type.String({ description: "the session's public id" }),
    user_id: Type.Integer(),
    expiration: Expiration,
  },
  { examples: [{ success: true, status: 200, session: '381', user_id: 42, expiration: '2025-01-16T09:31:00.000Z' }] },
);
