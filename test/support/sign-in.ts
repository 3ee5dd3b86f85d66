import type { LightMyRequestResponse } from 'fastify';
import type { Harness } from './harness.ts';

// Sign-in through the real API: operators create the person (admin API), the person signs in in two steps, and
// the code is read where a developer reads it, the outbox (GET /api/admin/v1/user-messages).

export const TEST_PASSWORD = 'correct horse battery';

let sequence = 0;

export interface SignInPerson {
  id: number;
  email: string;
  phone: string;
}

export function adminCall(harness: Harness, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method,
    url: `/api/admin/v1${url}`,
    headers: { authorization: `Bearer ${harness.adminKey}` },
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  });
}

export async function createPerson(harness: Harness, fields: Record<string, unknown> = {}): Promise<SignInPerson> {
  sequence += 1;
  const unique = `${process.pid % 10_000}${sequence}${Math.floor(Math.random() * 1e4)}`;
  const response = await adminCall(harness, 'POST', '/users', {
    email: `Signer.${unique}@Example.com`,
    phone: `+44 ${unique.padStart(10, '7').slice(-10)}`,
    password: TEST_PASSWORD,
    name: 'Grace',
    surname: 'Hopper',
    current_currency: 'EUR',
    country: 'GB',
    ...fields,
  });
  if (response.statusCode !== 200) throw new Error(`person create failed: ${response.body}`);
  const profile = response.json().profile as { id: number; email: string; phone: string };
  return { id: profile.id, email: profile.email, phone: profile.phone };
}

export function login(harness: Harness, loginText: string, password: string, ip = '198.51.100.1'): Promise<LightMyRequestResponse> {
  return harness.app.inject({ method: 'POST', url: '/api/v2/auth/login', remoteAddress: ip, payload: { login: loginText, password } });
}

export function confirm(harness: Harness, preSession: string | undefined, payload: Record<string, unknown>): Promise<LightMyRequestResponse> {
  return harness.app.inject({
    method: 'POST',
    url: '/api/v2/auth/login/confirm',
    headers: preSession === undefined ? {} : { 'session-token': preSession },
    payload,
  });
}

// The newest code sent to the person, read from the outbox as `payrail outbox` shows it.
export async function latestCode(harness: Harness, userId: number): Promise<string> {
  const response = await adminCall(harness, 'GET', `/user-messages?user_id=${userId}&limit=1`);
  const [message] = response.json().messages as { body: string | null }[];
  const code = message?.body?.match(/\b(\d{6})\b/)?.[1];
  if (code === undefined) throw new Error(`no code in the outbox for profile ${userId}: ${response.body}`);
  return code;
}

// A whole sign-in; returns the session-token header's value.
export async function signIn(harness: Harness, person: SignInPerson, ip = '198.51.100.2', timeToLive?: number): Promise<string> {
  const started = await login(harness, person.email, TEST_PASSWORD, ip);
  const preSession = started.json().session_token as string;
  const code = await latestCode(harness, person.id);
  const confirmed = await confirm(harness, preSession, { confirmation_code: code, ...(timeToLive === undefined ? {} : { time_to_live: timeToLive }) });
  if (confirmed.statusCode !== 200) throw new Error(`confirm failed: ${confirmed.body}`);
  return confirmed.json().session_token as string;
}

// A code that is not `code`.
export const otherCode = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, '0');
