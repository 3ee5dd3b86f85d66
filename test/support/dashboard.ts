import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBase64Url } from '../../src/platform/lib/crypto.ts';
import { hashPassword } from '../../src/platform/lib/password-hash.ts';
import { sessionTokenDigest } from '../../src/back-office/flows/sign-in.ts';
import type { MemberRole } from '../../src/back-office/domain/roles.ts';
import { insertMember } from '../../src/back-office/store/members-repo.ts';
import { activateSession, insertSession, setSessionEnvironment } from '../../src/back-office/store/sessions-repo.ts';
import { cookieJar } from './cookie-jar.ts';
import type { Harness, TestMerchant } from './harness.ts';

export const DASHBOARD_PASSWORD = 'correct-staple-orbit-42';

// A browser's view of the dashboard through inject(): it keeps the cookies it is given, and sends each form with
// the CSRF token of the page it last read.
export interface DashboardClient {
  merchant: TestMerchant;
  memberId: number;
  email: string;
  sessionToken?: string; // the session cookie's value, for a browser context
  get(path: string): Promise<LightMyRequestResponse>;
  // Reads `formPage` (default: the path itself, or /dashboard) for its token, then posts the form.
  post(path: string, form: Record<string, string>, formPage?: string): Promise<LightMyRequestResponse>;
  setEnvironment(environment: 'sandbox' | 'production'): Promise<void>;
  cookieHeader(): string;
}

let memberSequence = 0;

// A member of `merchant` (a new one by default) with the role, signed in (an active session), as a client.
// Works with the inject harness and with the server harness (harness.running.app): a browser test puts
// client.sessionToken into its context's cookies.
export async function signedInMember(
  harness: { createMerchant(name?: string): Promise<TestMerchant>; app?: FastifyInstance; running?: { app: FastifyInstance } },
  options: { role?: MemberRole; merchant?: TestMerchant; environment?: 'sandbox' | 'production' } = {},
): Promise<DashboardClient> {
  const app = harness.app ?? harness.running?.app;
  if (!app) throw new Error('signedInMember needs a harness with an app');
  const merchant = options.merchant ?? (await harness.createMerchant(`Dashboard merchant ${++memberSequence}`));
  const email = `member${++memberSequence}-${randomBase64Url(4).toLowerCase()}@merchant.example`;
  const db = app.payrail.database.db;
  const member = await insertMember(db, {
    merchantId: merchant.id,
    email,
    passwordHash: await hashPassword(DASHBOARD_PASSWORD, app.payrail.config.passwordScryptLogN),
    role: options.role ?? 'owner',
  });
  if (!member) throw new Error('member insert failed');
  const token = randomBase64Url(32);
  const session = await insertSession(db, {
    tokenDigest: sessionTokenDigest(token),
    memberId: member.id,
    stage: 'second_factor',
    codeDigest: null,
    userAgent: 'test',
    ipAddress: '127.0.0.1',
    expiresAt: new Date(Date.now() + 600_000),
  });
  await activateSession(db, session.id, 'second_factor', new Date(Date.now() + 12 * 3_600_000));
  if (options.environment) await setSessionEnvironment(db, session.id, options.environment);
  return dashboardClient(app, { '__Host-payrail_session': token }, { merchant, memberId: member.id, email, sessionId: session.id, sessionToken: token, db });
}

export function dashboardClient(
  app: FastifyInstance,
  initialCookies: Record<string, string>,
  who: { merchant: TestMerchant; memberId: number; email: string; sessionId?: number; sessionToken?: string; db?: Harness['database']['db'] },
  network: { remoteAddress?: string } = {},
): DashboardClient {
  const remoteAddress = network.remoteAddress ?? '127.0.0.1';
  const jar = cookieJar(initialCookies);
  const keep = jar.keep;
  const cookieHeader = jar.header;
  const client: DashboardClient = {
    ...who,
    cookieHeader,
    async get(path) {
      return keep(await app.inject({ method: 'GET', url: path, remoteAddress, headers: { cookie: cookieHeader() } }));
    },
    async post(path, form, formPage) {
      const page = await client.get(formPage ?? (path.startsWith('/dashboard/login') ? '/dashboard/login' : '/dashboard/settings'));
      const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
      // a form that carries a once-only key (a payout) is sent with the key of the page it came from
      const formKey = /name="formKey" value="([^"]+)"/.exec(page.body)?.[1];
      return keep(
        await app.inject({
          method: 'POST',
          url: path,
          remoteAddress,
          headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ _csrf: token, ...(formKey ? { formKey } : {}), ...form }).toString(),
        }),
      );
    },
    async setEnvironment(environment) {
      if (!who.db || who.sessionId === undefined) throw new Error('no session to switch');
      await setSessionEnvironment(who.db, who.sessionId, environment);
    },
  };
  return client;
}
