import { randomBase64Url } from '../../platform/lib/crypto.ts';
import { ApiError } from '../../platform/lib/errors.ts';
import { hashPassword } from '../../platform/lib/password-hash.ts';
import { isOperatorRole, type OperatorRole } from '../domain/operator-roles.ts';
import { countActiveAdmins, findOperator, insertOperator, listOperators, type OperatorRow, updateOperator } from '../store/operators-repo.ts';
import { endOperatorSessionsOf } from '../store/operator-sessions-repo.ts';
import type { DashboardDeps } from './dashboard-deps.ts';
import { fieldError, normalizedEmail } from './form-checks.ts';
import { newTotpEnrollment } from './second-factor.ts';

const OPERATOR_PASSWORD_BYTES = 18; // 24 base64url characters

export interface OperatorSummary {
  id: number;
  email: string;
  role: OperatorRole;
  status: 'active' | 'disabled';
  createdAt: Date;
}

// What the creator sees once: the password and the TOTP secret (as text, a URI and a QR code). Neither is kept in
// the clear: the password as a memory-hard hash, the secret sealed with the master key.
export interface NewOperatorCredentials {
  operator: OperatorSummary;
  password: string;
  totpSecret: string;
  totpUri: string;
  totpQrSvg: string;
}

function operatorSummaryOf(row: OperatorRow): OperatorSummary {
  return { id: row.id, email: row.email, role: row.role, status: row.status, createdAt: row.createdAt };
}

// `payrail operator create`, POST /api/admin/v1/operators and the console's operators page.
export async function createOperator(
  deps: Pick<DashboardDeps, 'db' | 'masterKey' | 'scryptLogN'>,
  form: { email: string; role: string },
): Promise<NewOperatorCredentials> {
  const email = normalizedEmail(form.email);
  if (!isOperatorRole(form.role)) throw fieldError('role', 'role is admin, support or finance');
  const password = randomBase64Url(OPERATOR_PASSWORD_BYTES);
  const enrollment = await newTotpEnrollment(deps.masterKey, email);
  const passwordHash = await hashPassword(password, deps.scryptLogN);
  const row = await deps.db.transaction((tx) =>
    insertOperator(tx, { email, passwordHash, role: form.role as OperatorRole, totpSecretSealed: enrollment.secretSealed }),
  );
  if (!row) throw new ApiError('operator_exists', 409, `an operator with the e-mail address ${email} exists`);
  return { operator: operatorSummaryOf(row), password, totpSecret: enrollment.secret, totpUri: enrollment.uri, totpQrSvg: enrollment.qrSvg };
}

export async function listOperatorAccounts(deps: Pick<DashboardDeps, 'db'>): Promise<OperatorSummary[]> {
  return (await listOperators(deps.db)).map(operatorSummaryOf);
}

// A role change or a disabling ends the operator's sessions; the last active admin stays.
export async function changeOperator(
  deps: Pick<DashboardDeps, 'db'>,
  operatorId: number,
  changes: { role?: string; status?: string },
): Promise<OperatorSummary> {
  if (changes.role !== undefined && !isOperatorRole(changes.role)) throw fieldError('role', 'role is admin, support or finance');
  if (changes.status !== undefined && changes.status !== 'active' && changes.status !== 'disabled') throw fieldError('status', 'status is active or disabled');
  return deps.db.transaction(async (tx) => {
    const current = await findOperator(tx, operatorId);
    if (!current) throw new ApiError('not_found', 404, 'no such operator');
    const role = (changes.role as OperatorRole | undefined) ?? current.role;
    const status = (changes.status as 'active' | 'disabled' | undefined) ?? current.status;
    const losesAdmin = current.role === 'admin' && current.status === 'active' && (role !== 'admin' || status !== 'active');
    if (losesAdmin && (await countActiveAdmins(tx)) <= 1) throw new ApiError('last_admin', 409, 'the last active admin keeps the admin role');
    const updated = await updateOperator(tx, operatorId, { role, status });
    if (!updated) throw new ApiError('not_found', 404, 'no such operator');
    if (role !== current.role || status !== current.status) await endOperatorSessionsOf(tx, operatorId);
    return operatorSummaryOf(updated);
  });
}
