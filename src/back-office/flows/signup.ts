import { createSignedUpMerchant } from '../../payments/index.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import { passwordProblem } from '../domain/password-rules.ts';
import { SIGNUP_LINK_TTL_MS } from '../domain/session-times.ts';
import { findMemberByEmail, insertMember } from '../store/members-repo.ts';
import { useLink } from '../store/links-repo.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { linkTokenDigest, sendLink, sendNotice } from './links.ts';
import { fieldError, normalizedEmail } from './form-checks.ts';

const BUSINESS_NAME_LENGTH_MAX = 100;

export interface SignUpForm {
  businessName: string;
  email: string;
  password: string;
}

// Step 1: the form. The answer is the same whether or not the address has an account (no enumeration); an existing
// member gets a notice instead of a link.
export async function startSignUp(deps: DashboardDeps, form: SignUpForm): Promise<void> {
  if (!deps.signUpOpen) throw new ApiError('signup_closed', 403, 'sign-up is closed on this Payrail: ask an operator for an invitation');
  const businessName = form.businessName.trim();
  if (businessName.length < 1 || businessName.length > BUSINESS_NAME_LENGTH_MAX) {
    throw fieldError('businessName', `must be 1 to ${BUSINESS_NAME_LENGTH_MAX} characters`);
  }
  const email = normalizedEmail(form.email);
  const problem = passwordProblem(form.password, email);
  if (problem !== null) throw fieldError('password', problem);
  const passwordHash = await hashPassword(form.password, deps.scryptLogN);
  await deps.db.transaction(async (tx) => {
    if (await findMemberByEmail(tx, email)) {
      await sendNotice(tx, deps, {
        recipient: email,
        subject: 'Your Payrail dashboard account',
        body: `Someone tried to sign up with this address, which already has an account.\nSign in at ${deps.publicUrl}/dashboard/login or reset your password there.`,
        expiresAt: new Date(Date.now() + SIGNUP_LINK_TTL_MS),
      });
      return;
    }
    await sendLink(
      tx,
      deps,
      {
        kind: 'signup',
        email,
        businessName,
        passwordHash,
        merchantId: null,
        memberId: null,
        role: 'owner',
        expiresAt: new Date(Date.now() + SIGNUP_LINK_TTL_MS),
      },
      '/dashboard/confirm',
      {
        subject: 'Confirm your Payrail account',
        lines: (url) => `Confirm your e-mail address to create ${businessName}'s Payrail account:\n${url}\nThe link works once, for 24 hours.`,
      },
    );
  });
}

export interface ConfirmedSignUp {
  merchantId: number;
  memberId: number;
  email: string;
  sandboxKey: string; // shown once, on the confirmation page
}

// Step 2: the link. One transaction: the link spent, the merchant (sandbox key at once, production after review)
// and its owner created.
export async function confirmSignUp(deps: DashboardDeps, token: string): Promise<ConfirmedSignUp> {
  return deps.db.transaction(async (tx) => {
    const link = await useLink(tx, 'signup', linkTokenDigest(token));
    if (!link || link.businessName === null || link.passwordHash === null) {
      throw new ApiError('link_invalid', 410, 'this link was used already or has expired: sign up again');
    }
    if (await findMemberByEmail(tx, link.email)) throw new ApiError('link_invalid', 410, 'this address has an account already: sign in');
    const { merchant, sandboxKey } = await createSignedUpMerchant(tx, deps.masterKey, link.businessName);
    const member = await insertMember(tx, { merchantId: merchant.id, email: link.email, passwordHash: link.passwordHash, role: 'owner' });
    if (!member) throw new ApiError('link_invalid', 410, 'this address has an account already: sign in');
    return { merchantId: merchant.id, memberId: member.id, email: member.email, sandboxKey };
  });
}
