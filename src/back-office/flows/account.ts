import { ApiError } from '../../platform/lib/errors.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import { passwordProblem } from '../domain/password-rules.ts';
import { RESET_LINK_TTL_MS } from '../domain/session-times.ts';
import { useLink } from '../store/links-repo.ts';
import { findMember, findMemberByEmail, updateMember } from '../store/members-repo.ts';
import { endSessionsOf } from '../store/sessions-repo.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { fieldError, normalizedEmail } from './form-checks.ts';
import { linkTokenDigest, sendLink } from './links.ts';
import { enrollmentOf, newTotpEnrollment, totpMatches, totpQrSvg, type TotpEnrollment } from './second-factor.ts';
import type { DashboardViewer } from './sessions.ts';

// A member's own account: password reset by e-mailed link, the TOTP second factor.

// The same answer whether or not the address has an account.
export async function requestPasswordReset(deps: DashboardDeps, emailText: string): Promise<void> {
  const email = normalizedEmail(emailText);
  await deps.db.transaction(async (tx) => {
    const member = await findMemberByEmail(tx, email);
    if (!member) return;
    await sendLink(
      tx,
      deps,
      {
        kind: 'reset',
        email,
        merchantId: member.merchantId,
        memberId: member.id,
        businessName: null,
        passwordHash: null,
        role: null,
        expiresAt: new Date(Date.now() + RESET_LINK_TTL_MS),
      },
      '/dashboard/reset/complete',
      {
        subject: 'Reset your Payrail dashboard password',
        lines: (url) => `Choose a new password here (the link works once, for 30 minutes):\n${url}\nIf you did not ask for this, ignore this message.`,
      },
    );
  });
}

// Spends the link, sets the password and ends every session of the member.
export async function completePasswordReset(deps: DashboardDeps, token: string, password: string): Promise<void> {
  const passwordHashOf = async (email: string) => {
    const problem = passwordProblem(password, email);
    if (problem !== null) throw fieldError('password', problem);
    return hashPassword(password, deps.scryptLogN);
  };
  await deps.db.transaction(async (tx) => {
    const link = await useLink(tx, 'reset', linkTokenDigest(token));
    if (!link || link.memberId === null || link.merchantId === null)
      throw new ApiError('link_invalid', 410, 'this link was used already or has expired: ask for a new one');
    const member = await findMember(tx, link.memberId);
    if (!member) throw new ApiError('link_invalid', 410, 'this account no longer exists');
    await updateMember(tx, member.merchantId, member.id, { passwordHash: await passwordHashOf(member.email) });
    await endSessionsOf(tx, member.id, null);
  });
}

export async function startTotpEnrollment(deps: DashboardDeps, viewer: DashboardViewer): Promise<TotpEnrollment> {
  const enrollment = await newTotpEnrollment(deps.masterKey, viewer.email);
  await updateMember(deps.db, viewer.merchantId, viewer.memberId, { totpPendingSealed: enrollment.secretSealed });
  return enrollment;
}

// The first code from the app proves the enrollment; from then on it is the second factor.
export async function confirmTotpEnrollment(deps: DashboardDeps, viewer: DashboardViewer, code: string): Promise<void> {
  const member = await findMember(deps.db, viewer.memberId);
  if (!member || member.totpPendingSealed === null) throw new ApiError('invalid_state', 409, 'start the enrollment again');
  if (!(await totpMatches(deps.masterKey, member.totpPendingSealed, code.replace(/\s/g, '')))) throw fieldError('code', 'is not the code the app shows now');
  await updateMember(deps.db, viewer.merchantId, viewer.memberId, { totpSecretSealed: member.totpPendingSealed, totpPendingSealed: null });
}

// The enrollment under way, shown again after a wrong code (the app holds this secret, not a new one).
export async function pendingTotpEnrollment(deps: DashboardDeps, viewer: DashboardViewer): Promise<Omit<TotpEnrollment, 'secretSealed' | 'uri'> | null> {
  const member = await findMember(deps.db, viewer.memberId);
  if (!member?.totpPendingSealed) return null;
  const secret = enrollmentOf(deps.masterKey, member.totpPendingSealed);
  return { secret, qrSvg: await totpQrSvg(viewer.email, secret) };
}
