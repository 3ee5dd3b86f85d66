import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  changeUser,
  getUser,
  getUserWallets,
  KYC_STATUSES,
  type KycStatus,
  listBankAccountsForReview,
  listUsersPage,
  searchUsers,
  type UserRow,
} from '../../../core-banking/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import type { SafeHtml } from '../../../platform/lib/html.ts';
import { operatorMay } from '../../domain/operator-roles.ts';
import { problemOf } from '../../pages/form-errors.ts';
import { formText } from '../../pages/machinery.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { doneNotice, pathIdOf } from './page-values.ts';
import { USERS_PER_PAGE, userListView, userProfileView } from './users-views.ts';

const PAGE_MAX = 10_000;

// Core banking profiles: the list (newest first) and a bounded search, a profile's page (its fields, wallets and
// bank accounts), and the admin API's change (PATCH /api/admin/v1/users/:id: status, KYC status, wallet PIN).
export async function usersPages(app: FastifyInstance): Promise<void> {
  const { database, currencies } = app.payrail;
  const db = database.db;

  app.get<{ Querystring: { q?: string; page?: string } }>('/users', async (request, reply) => {
    requireOperatorAction(request, 'users.read');
    const search = (request.query.q ?? '').trim();
    const page = /^[0-9]{1,5}$/.test(request.query.page ?? '') ? Math.min(Math.max(Number(request.query.page), 1), PAGE_MAX) : 1;
    let problem: SafeHtml | '' = '';
    let found: { rows: UserRow[]; total: number | null } = { rows: [], total: 0 };
    try {
      found = search === '' ? await listUsersPage(db, page, USERS_PER_PAGE, null) : { rows: await searchUsers(db, search), total: null };
    } catch (error) {
      problem = problemOf(error);
    }
    return opsPage(request, reply, { title: 'Users', area: 'users', status: problem ? 400 : 200, body: userListView({ search, page, ...found, problem }) });
  });

  const showProfile = async (request: FastifyRequest, reply: FastifyReply, id: number, notice: SafeHtml | '', status = 200) => {
    const operator = requireOperatorAction(request, 'users.read');
    const user = await getUser(db, id);
    const wallets = await getUserWallets(db, currencies, id, null);
    const bankAccounts = operatorMay(operator.role, 'bank_accounts') ? await listBankAccountsForReview(db, { status: null, profileId: id, page: 1 }) : null;
    const body = userProfileView(request, operator, { user, wallets, bankAccounts, currencies, notice });
    return opsPage(request, reply, { title: `User ${user.id}`, area: 'users', status, body });
  };

  app.get<{ Params: { id: string }; Querystring: { done?: string } }>('/users/:id', async (request, reply) =>
    showProfile(request, reply, pathIdOf(request.params.id), doneNotice({ changed: 'Profile changed.' }, request.query.done)),
  );

  app.post<{ Params: { id: string } }>('/users/:id', async (request, reply) => {
    requireOperatorAction(request, 'users.write');
    const id = pathIdOf(request.params.id);
    try {
      const changes = userChangesOf(request.body);
      setAuditAction('user.update');
      await changeUser(db, id, changes);
    } catch (error) {
      if (error instanceof ApiError && error.statusCode !== 404) return showProfile(request, reply, id, problemOf(error), 400);
      throw error;
    }
    return reply.redirect(`/ops/users/${id}?done=changed`, 303);
  });
}

// The form sends all three; an unchanged one changes nothing (and the audit log records only what changed).
function userChangesOf(body: unknown): { status: 'active' | 'disabled'; kycStatus: KycStatus; walletPinEnabled: boolean } {
  const status = formText(body, 'status');
  const kycStatus = formText(body, 'kyc_status');
  const walletPin = formText(body, 'wallet_pin_enabled');
  if (status !== 'active' && status !== 'disabled') throw new ApiError('invalid_field', 422, 'status is active or disabled');
  if (!(KYC_STATUSES as readonly string[]).includes(kycStatus)) throw new ApiError('invalid_field', 422, `KYC status is one of ${KYC_STATUSES.join(', ')}`);
  if (walletPin !== 'on' && walletPin !== 'off') throw new ApiError('invalid_field', 422, 'wallet PIN is on or off');
  return { status, kycStatus: kycStatus as KycStatus, walletPinEnabled: walletPin === 'on' };
}
