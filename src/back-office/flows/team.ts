import { ApiError } from '../../platform/lib/errors.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import { passwordProblem } from '../domain/password-rules.ts';
import type { MemberRole } from '../domain/roles.ts';
import { INVITE_LINK_TTL_MS, TEAM_SIZE_MAX } from '../domain/session-times.ts';
import { deleteLinksOfMember, findLiveLink, listOpenInvites, useLink, type LinkRow } from '../store/links-repo.ts';
import { countMembersWithRole, deleteMember, findMemberByEmail, insertMember, listMembers, updateMember, type MemberRow } from '../store/members-repo.ts';
import { deleteSessionsOf } from '../store/sessions-repo.ts';
import { recordAuditEvent } from './audit-log.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { fieldError, normalizedEmail } from './form-checks.ts';
import { linkTokenDigest, sendLink } from './links.ts';
import type { DashboardViewer } from './sessions.ts';

// A merchant's team: the owner invites by e-mail with a role, changes roles, removes members. The last owner stays.

export async function listTeam(deps: DashboardDeps, viewer: DashboardViewer): Promise<{ members: MemberRow[]; invites: LinkRow[] }> {
  const [members, invites] = await Promise.all([
    listMembers(deps.db, viewer.merchantId, TEAM_SIZE_MAX),
    listOpenInvites(deps.db, viewer.merchantId, TEAM_SIZE_MAX),
  ]);
  return { members, invites };
}

// Also the operators' way in when sign-up is closed (merchantName: the invitation's subject line).
export async function inviteMember(
  deps: DashboardDeps,
  merchant: { merchantId: number; merchantName: string },
  emailText: string,
  role: MemberRole,
): Promise<void> {
  const email = normalizedEmail(emailText);
  await deps.db.transaction(async (tx) => {
    if (await findMemberByEmail(tx, email)) throw fieldError('email', 'already has a Payrail dashboard account');
    if ((await listMembers(tx, merchant.merchantId, TEAM_SIZE_MAX)).length >= TEAM_SIZE_MAX) {
      throw new ApiError('team_full', 409, `a team has at most ${TEAM_SIZE_MAX} members`);
    }
    await sendLink(
      tx,
      deps,
      {
        kind: 'invite',
        email,
        merchantId: merchant.merchantId,
        memberId: null,
        businessName: null,
        passwordHash: null,
        role,
        expiresAt: new Date(Date.now() + INVITE_LINK_TTL_MS),
      },
      '/dashboard/invite',
      {
        subject: `You are invited to ${merchant.merchantName} on Payrail`,
        lines: (url) =>
          `You are invited to join ${merchant.merchantName}'s Payrail dashboard as ${role}.\nChoose your password here (the link works once, for 7 days):\n${url}`,
      },
    );
    await recordAuditEvent(tx, { action: 'member.invite', subjectType: 'merchant', subjectId: String(merchant.merchantId), after: { email, role } });
  });
}

export async function inviteOf(deps: DashboardDeps, token: string): Promise<LinkRow> {
  const link = await findLiveLink(deps.db, 'invite', linkTokenDigest(token));
  if (!link) throw new ApiError('link_invalid', 410, 'this invitation was used already or has expired: ask for a new one');
  return link;
}

export async function acceptInvite(deps: DashboardDeps, token: string, password: string): Promise<MemberRow> {
  const pending = await inviteOf(deps, token);
  const problem = passwordProblem(password, pending.email);
  if (problem !== null) throw fieldError('password', problem);
  const passwordHash = await hashPassword(password, deps.scryptLogN);
  return deps.db.transaction(async (tx) => {
    const link = await useLink(tx, 'invite', linkTokenDigest(token));
    if (!link || link.merchantId === null || link.role === null) throw new ApiError('link_invalid', 410, 'this invitation was used already or has expired');
    const member = await insertMember(tx, { merchantId: link.merchantId, email: link.email, passwordHash, role: link.role });
    if (!member) throw new ApiError('link_invalid', 410, 'this address has an account already: sign in');
    return member;
  });
}

export async function changeMemberRole(deps: DashboardDeps, viewer: DashboardViewer, memberId: number, role: MemberRole): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const member = (await listMembers(tx, viewer.merchantId, TEAM_SIZE_MAX)).find((candidate) => candidate.id === memberId);
    if (!member) throw new ApiError('not_found', 404, 'no such member of your team');
    if (member.role === 'owner' && role !== 'owner' && (await countMembersWithRole(tx, viewer.merchantId, 'owner')) <= 1) {
      throw new ApiError('last_owner', 409, 'a team keeps at least one owner');
    }
    await updateMember(tx, viewer.merchantId, memberId, { role });
  });
}

export async function removeMember(deps: DashboardDeps, viewer: DashboardViewer, memberId: number): Promise<void> {
  if (memberId === viewer.memberId) throw new ApiError('invalid_state', 409, 'you cannot remove yourself: another owner can');
  await deps.db.transaction(async (tx) => {
    const member = (await listMembers(tx, viewer.merchantId, TEAM_SIZE_MAX)).find((candidate) => candidate.id === memberId);
    if (!member) throw new ApiError('not_found', 404, 'no such member of your team');
    await deleteSessionsOf(tx, memberId);
    await deleteLinksOfMember(tx, memberId);
    if (!(await deleteMember(tx, viewer.merchantId, memberId))) throw new ApiError('not_found', 404, 'no such member of your team');
  });
}
