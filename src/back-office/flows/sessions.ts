import type { Db } from '../../platform/database.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import type { MemberRole } from '../domain/roles.ts';
import { SESSION_IDLE_MS, SESSIONS_LISTED_MAX, sessionAlive } from '../domain/session-times.ts';
import { endSession, findSessionWithMember, listLiveSessions, setSessionEnvironment, touchSession, type SessionRow } from '../store/sessions-repo.ts';
import { sessionTokenDigest } from './sign-in.ts';

const TOUCH_INTERVAL_MS = 60_000; // the idle clock moves at most once a minute: a page view costs no write

// Who is looking at a dashboard page: the member, their merchant, the session and its test-mode switch.
export interface DashboardViewer {
  memberId: number;
  email: string;
  role: MemberRole;
  merchantId: number;
  merchantName: string;
  merchantReviewStatus: 'pending_review' | 'approved' | 'rejected';
  merchantReviewNote: string | null; // the operator's reason when the sign-up was rejected
  merchantActive: boolean;
  sessionId: number;
  environment: 'sandbox' | 'production';
  hasTotp: boolean;
}

// The viewer of a session cookie; null when the session is unknown, half-open, ended, idle or past its end.
export async function viewerOfSession(db: Db, sessionToken: string, now = new Date()): Promise<DashboardViewer | null> {
  const found = await findSessionWithMember(db, sessionTokenDigest(sessionToken));
  if (found?.session.stage !== 'active' || !sessionAlive(found.session, now)) return null;
  const { session, member, merchant } = found;
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) await touchSession(db, session.id);
  return {
    memberId: member.id,
    email: member.email,
    role: member.role,
    merchantId: member.merchantId,
    merchantName: merchant.displayName ?? merchant.name,
    merchantReviewStatus: merchant.reviewStatus,
    merchantReviewNote: merchant.reviewNote,
    merchantActive: merchant.status === 'active',
    sessionId: session.id,
    environment: session.environment,
    hasTotp: member.totpSecretSealed !== null,
  };
}

export async function switchEnvironment(db: Db, viewer: DashboardViewer, environment: 'sandbox' | 'production'): Promise<void> {
  await setSessionEnvironment(db, viewer.sessionId, environment);
}

// Logout, or revoking one of one's own sessions from Settings: ended server-side at once.
export async function endOwnSession(db: Db, viewer: DashboardViewer, sessionId: number): Promise<void> {
  if (!(await endSession(db, viewer.memberId, sessionId))) throw new ApiError('not_found', 404, 'no such session of yours');
}

export async function listOwnSessions(db: Db, viewer: DashboardViewer): Promise<SessionRow[]> {
  return listLiveSessions(db, viewer.memberId, new Date(Date.now() - SESSION_IDLE_MS), SESSIONS_LISTED_MAX);
}
