import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import type { OperatorRole } from '../../src/back-office/domain/operator-roles.ts';
import { cookieJar } from './cookie-jar.ts';
import { createOperator, type NewOperatorCredentials } from '../../src/back-office/flows/operators.ts';

// An operator's browser through inject(): it keeps the cookies it is given and sends each form with the CSRF token
// of the page it last read (the console's own cookie names).
export interface OpsClient {
  operatorId: number;
  email: string;
  role: OperatorRole;
  credentials: NewOperatorCredentials;
  sessionToken: string; // the session cookie's value, for a browser context
  get(path: string): Promise<LightMyRequestResponse>;
  // Reads `formPage` (default: the path itself when it is a page, else /ops) for its token, then posts the form.
  post(path: string, form: Record<string, string | string[]>, formPage?: string): Promise<LightMyRequestResponse>;
  cookieHeader(): string;
}

let operatorSequence = 0;

export function totpCodeOf(secret: string): Promise<string> {
  return generate({ secret });
}

// An operator with the role, made by the real flow and signed in through the real pages (password, then TOTP).
export async function signedInOperator(
  harness: { app?: FastifyInstance; running?: { app: FastifyInstance } },
  options: { role?: OperatorRole; remoteAddress?: string } = {},
): Promise<OpsClient> {
  const app = harness.app ?? harness.running?.app;
  if (!app) throw new Error('signedInOperator needs a harness with an app');
  const context = app.payrail;
  const credentials = await createOperator(
    { db: context.database.db, masterKey: context.masterKey, scryptLogN: context.config.passwordScryptLogN },
    { email: `operator${++operatorSequence}-${Date.now()}@payrail.example`, role: options.role ?? 'admin' },
  );
  const client = opsClient(app, {}, options.remoteAddress ?? '127.0.0.1');
  const login = await client.post('/ops/login', { email: credentials.operator.email, password: credentials.password }, '/ops/login');
  if (login.statusCode !== 303) throw new Error(`operator sign-in failed: ${login.statusCode} ${login.body.slice(0, 300)}`);
  const confirmed = await client.post('/ops/login/code', { code: await totpCodeOf(credentials.totpSecret), next: '/ops' }, '/ops/login/code');
  if (confirmed.statusCode !== 303) throw new Error(`operator code failed: ${confirmed.statusCode} ${confirmed.body.slice(0, 300)}`);
  const sessionToken = client.cookie('__Host-payrail_ops_session');
  if (!sessionToken) throw new Error('no operator session cookie');
  return {
    operatorId: credentials.operator.id,
    email: credentials.operator.email,
    role: credentials.operator.role,
    credentials,
    sessionToken,
    get: client.get,
    post: client.post,
    cookieHeader: client.cookieHeader,
  };
}

// A `type`, not an interface, so that Object.entries keeps its values' type.
type SignedInOperators = { admin: OpsClient; support: OpsClient; finance: OpsClient };

// One operator of each role, each signed in as signedInOperator does.
export async function signedInOperators(harness: Parameters<typeof signedInOperator>[0]): Promise<SignedInOperators> {
  const [admin, support, finance] = await Promise.all([
    signedInOperator(harness, { role: 'admin' }),
    signedInOperator(harness, { role: 'support' }),
    signedInOperator(harness, { role: 'finance' }),
  ]);
  return { admin, support, finance };
}

export function opsClient(app: FastifyInstance, initialCookies: Record<string, string>, remoteAddress = '127.0.0.1') {
  const jar = cookieJar(initialCookies);
  const keep = jar.keep;
  const cookieHeader = jar.header;
  const get = async (path: string) => keep(await app.inject({ method: 'GET', url: path, remoteAddress, headers: { cookie: cookieHeader() } }));
  const post = async (path: string, form: Record<string, string | string[]>, formPage?: string) => {
    const page = await get(formPage ?? '/ops');
    const token = /name="_csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
    const body = new URLSearchParams({ _csrf: token });
    for (const [name, value] of Object.entries(form)) for (const item of Array.isArray(value) ? value : [value]) body.append(name, item);
    return keep(
      await app.inject({
        method: 'POST',
        url: path,
        remoteAddress,
        headers: { cookie: cookieHeader(), 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      }),
    );
  };
  return { get, post, cookieHeader, cookie: jar.value };
}
