import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardClient, DASHBOARD_PASSWORD, signedInMember, type DashboardClient } from '../../support/dashboard.ts';
import { testEngines } from '../../support/databases.ts';
import { startHarness, type Harness } from '../../support/harness.ts';

const engines = await testEngines();
const GOOD_PASSWORD = 'tangerine-ladder-velvet-9';

describe.each(engines)('dashboard accounts on %s', (engine) => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness(engine);
  });
  afterAll(async () => harness.close());

  const lastMessageTo = async (recipient: string): Promise<string> => {
    const result = await harness.database.db.execute(sql`select body from user_messages where recipient = ${recipient} order by id desc limit 1`);
    return String((result.rows[0] as { body?: string } | undefined)?.body ?? '');
  };
  const tokenIn = (body: string) => /token=([A-Za-z0-9_-]+)/.exec(body)?.[1] ?? '';
  const anonymous = () => dashboardClient(harness.app, {}, { merchant: { id: 0, sandboxKey: '', productionKey: '' }, memberId: 0, email: '' });

  async function signIn(client: DashboardClient, email: string, password: string): Promise<LightMyRequestResponse> {
    const first = await client.post('/dashboard/login', { email, password, next: '/dashboard/settings' });
    if (first.statusCode !== 303) return first;
    const code = /code is ([0-9]{6})/.exec(await lastMessageTo(email))?.[1] ?? '000000';
    return client.post('/dashboard/login/code', { code, method: 'code', next: '/dashboard/settings' }, '/dashboard/login');
  }

  it('signs up, confirms by the e-mailed link with the sandbox key shown once, and signs in with an e-mailed code', async () => {
    const client = anonymous();
    const email = `owner-${engine}@shop.example`;
    const weak = await client.post('/dashboard/signup', { businessName: 'Shop', email, password: 'password1234' }, '/dashboard/signup');
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toContain('too common');
    const signUp = await client.post('/dashboard/signup', { businessName: 'Corner Shop', email, password: GOOD_PASSWORD }, '/dashboard/signup');
    expect(signUp.statusCode).toBe(200);
    const token = tokenIn(await lastMessageTo(email));
    expect(token).not.toBe('');
    const confirmed = await client.post('/dashboard/confirm', { token }, `/dashboard/confirm?token=${token}`);
    expect(confirmed.statusCode).toBe(200);
    const sandboxKey = /id="sandbox-key">([^<]+)</.exec(confirmed.body)?.[1] ?? '';
    expect(sandboxKey).toMatch(/^sk_sandbox_/);
    const again = await client.post('/dashboard/confirm', { token }, `/dashboard/confirm?token=${token}`);
    expect(again.statusCode).toBe(410);

    const keyWorks = await harness.merchantRequest(sandboxKey, { method: 'GET', url: '/api/v1/payments' });
    expect(keyWorks.statusCode).toBe(200);

    const wrong = await client.post('/dashboard/login', { email, password: 'not-the-password-at-all' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('wrong');
    const signedIn = await signIn(client, email, GOOD_PASSWORD);
    expect(signedIn.statusCode).toBe(303);
    const cookie = signedIn.cookies.find((candidate) => candidate.name === '__Host-payrail_session');
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/' });
    const settings = await client.get('/dashboard/settings');
    expect(settings.statusCode).toBe(200);
    expect(settings.body).toContain('Corner Shop');
    expect(settings.body).toContain('waiting for an operator');
  });

  it('issues no production key before an operator approves the merchant, and lists it as pending_review', async () => {
    const client = anonymous();
    const email = `pending-${engine}@shop.example`;
    await client.post('/dashboard/signup', { businessName: 'Pending Ltd', email, password: GOOD_PASSWORD }, '/dashboard/signup');
    const token = tokenIn(await lastMessageTo(email));
    await client.post('/dashboard/confirm', { token }, `/dashboard/confirm?token=${token}`);
    const merchants = await harness.app.inject({ method: 'GET', url: '/api/admin/v1/merchants', headers: { authorization: `Bearer ${harness.adminKey}` } });
    const merchant = merchants.json().merchants.find((candidate: { name: string }) => candidate.name === 'Pending Ltd');
    expect(merchant.review_status).toBe('pending_review');
    expect(merchant.keys.map((key: { environment: string }) => key.environment)).toEqual(['sandbox']);
    const approved = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/approve`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().merchant.review_status).toBe('approved');
  });

  it('lets an operator invite a merchant’s owner by e-mail (the way in when sign-up is closed)', async () => {
    const merchant = await harness.createMerchant('Invited Ltd');
    const email = `invited-owner-${engine}@shop.example`;
    const invited = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/invitations`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { email },
    });
    expect(invited.statusCode).toBe(200);
    expect(invited.json()).toEqual({ success: true, email, role: 'owner' });
    const token = tokenIn(await lastMessageTo(email));
    const page = await anonymous().get(`/dashboard/invite?token=${token}`);
    expect(page.body).toContain(`${email}, invited as owner`);
    const accepted = await anonymous().post('/dashboard/invite', { token, password: GOOD_PASSWORD }, `/dashboard/invite?token=${token}`);
    expect(accepted.statusCode).toBe(200);
    expect((await signIn(anonymous(), email, GOOD_PASSWORD)).statusCode).toBe(303);
    const unknown = await harness.app.inject({
      method: 'POST',
      url: '/api/admin/v1/merchants/999999/invitations',
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { email: 'nobody@shop.example' },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('refuses sign-up when it is closed', async () => {
    const closed = await startHarness(engine, { PAYRAIL_SIGNUP: 'closed' });
    try {
      const client = dashboardClient(closed.app, {}, { merchant: { id: 0, sandboxKey: '', productionKey: '' }, memberId: 0, email: '' });
      const refused = await client.post(
        '/dashboard/signup',
        { businessName: 'Closed Ltd', email: 'c@shop.example', password: GOOD_PASSWORD },
        '/dashboard/signup',
      );
      expect(refused.statusCode).toBe(400);
      expect(refused.body).toContain('sign-up is closed');
    } finally {
      await closed.close();
    }
  });

  it('refuses sign-in after too many failed attempts for one account', async () => {
    const member = await signedInMember(harness);
    // an address of its own: the per-address limit would otherwise stop the other tests' sign-ins
    const client = dashboardClient(harness.app, {}, { merchant: member.merchant, memberId: 0, email: '' }, { remoteAddress: '10.9.9.9' });
    for (let attempt = 0; attempt < harness.config.signIn.accountMax; attempt += 1) {
      await client.post('/dashboard/login', { email: member.email, password: `wrong-password-${attempt}` });
    }
    const throttled = await client.post('/dashboard/login', { email: member.email, password: DASHBOARD_PASSWORD });
    expect(throttled.statusCode).toBe(400);
    expect(throttled.body).toContain('too many failed sign-ins');
  });

  it('ends a revoked session at once, and logout ends the session server-side', async () => {
    const member = await signedInMember(harness);
    const other = await signIn(anonymous(), member.email, DASHBOARD_PASSWORD);
    expect(other.statusCode).toBe(303);
    const page = await member.get('/dashboard/settings');
    const buttons = [...page.body.matchAll(/sessions\/([0-9]+)\/revoke">.*?<button[^>]*>([^<]+)</g)].map((match) => ({ id: match[1], label: match[2] }));
    expect(buttons.map((button) => button.label).sort()).toEqual(['End this session', 'Revoke']);
    const otherCookie = other.cookies.find((cookie) => cookie.name === '__Host-payrail_session')?.value ?? '';
    const otherClient = dashboardClient(harness.app, { '__Host-payrail_session': otherCookie }, member);
    expect((await otherClient.get('/dashboard/settings')).statusCode).toBe(200);
    const revoked = await member.post(`/dashboard/settings/sessions/${buttons.find((button) => button.label === 'Revoke')?.id}/revoke`, {});
    expect(revoked.statusCode).toBe(200);
    expect((await otherClient.get('/dashboard/settings')).statusCode).toBe(303);
    const loggedOut = await member.post('/dashboard/logout', {});
    expect(loggedOut.statusCode).toBe(303);
    const staleCookie = dashboardClient(harness.app, { '__Host-payrail_session': member.sessionToken ?? '' }, member);
    expect((await staleCookie.get('/dashboard/settings')).statusCode).toBe(303); // the server ended it, not only the browser
  });

  it('invites a member with a role; a viewer cannot invite or change roles, even by a forged POST', async () => {
    const owner = await signedInMember(harness);
    const email = `viewer-${engine}@shop.example`;
    const invited = await owner.post('/dashboard/settings/team/invite', { email, role: 'viewer' });
    expect(invited.statusCode).toBe(200);
    const token = tokenIn(await lastMessageTo(email));
    const accepted = await anonymous().post('/dashboard/invite', { token, password: GOOD_PASSWORD }, `/dashboard/invite?token=${token}`);
    expect(accepted.statusCode).toBe(200);
    const viewer = await signedInMember(harness, { role: 'viewer', merchant: owner.merchant });
    const settings = await viewer.get('/dashboard/settings');
    expect(settings.body).toContain(email);
    expect(settings.body).not.toContain('/dashboard/settings/team/invite');
    const forged = await viewer.post('/dashboard/settings/team/invite', { email: 'x@shop.example', role: 'owner' });
    expect(forged.statusCode).toBe(403);
    const ownerId = owner.memberId;
    const forgedRole = await viewer.post(`/dashboard/settings/team/${ownerId}/role`, { role: 'viewer' });
    expect(forgedRole.statusCode).toBe(403);
  });

  it('resets a password by a single-use link and ends every session', async () => {
    const member = await signedInMember(harness);
    await anonymous().post('/dashboard/reset', { email: member.email }, '/dashboard/reset');
    const token = tokenIn(await lastMessageTo(member.email));
    const done = await anonymous().post('/dashboard/reset/complete', { token, password: GOOD_PASSWORD }, `/dashboard/reset/complete?token=${token}`);
    expect(done.statusCode).toBe(200);
    expect((await member.get('/dashboard/settings')).statusCode).toBe(303);
    const reused = await anonymous().post('/dashboard/reset/complete', { token, password: `${GOOD_PASSWORD}x` }, `/dashboard/reset/complete?token=${token}`);
    expect(reused.statusCode).toBe(400);
    expect((await signIn(anonymous(), member.email, GOOD_PASSWORD)).statusCode).toBe(303);
  });

  it('enrolls a TOTP app and asks for its code at the next sign-in', async () => {
    const member = await signedInMember(harness);
    const page = await member.get('/dashboard/settings/totp');
    expect(page.body).toContain('<svg');
    const secret = /id="totp-key">([A-Z2-7]+)</.exec(page.body)?.[1] ?? '';
    const wrong = await member.post('/dashboard/settings/totp', { code: '000000' }, '/dashboard/settings');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain(secret);
    const on = await member.post('/dashboard/settings/totp', { code: await generate({ secret }) }, '/dashboard/settings');
    expect(on.statusCode).toBe(200);
    const client = anonymous();
    const first = await client.post('/dashboard/login', { email: member.email, password: DASHBOARD_PASSWORD });
    expect(first.headers.location).toContain('method=totp');
    const second = await client.post('/dashboard/login/code', { code: await generate({ secret }), method: 'totp' }, '/dashboard/login');
    expect(second.statusCode).toBe(303);
  });
});
