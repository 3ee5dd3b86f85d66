// What each operator role may do in the console (issue: admin everything; support merchants read, disputes,
// bank-account reviews, resend; finance ledger, commissions read, reconciliation, exports). Every console route
// checks its action on the server; pages hide what the role cannot do with the same table.

export type OperatorRole = 'admin' | 'support' | 'finance';

const OPERATOR_ACTIONS = [
  'overview', // the overview page
  'merchants.read',
  'merchants.write', // review, enable/disable, key rotation, display name
  'gateways.write', // gateway settings, adapter checks
  'commissions.read',
  'commissions.write',
  'payments.read', // payments of every merchant, their timelines
  'payments.resend', // notifications again
  'payments.check', // a status check now
  'disputes', // review, resolve
  'conflicts', // resolve a gateway's disagreement with a final status
  'bank_accounts', // core banking bank-account reviews
  'users.read',
  'users.write',
  'app_tokens',
  'ledger', // balances, the ledger check, commissions earned
  'exports',
  'reconciliation', // settlement-file imports and their reports
  'audit', // the audit log
  'operators', // operator accounts
] as const;

export type OperatorAction = (typeof OPERATOR_ACTIONS)[number];

const ALLOWED: Readonly<Record<OperatorRole, readonly OperatorAction[]>> = {
  admin: OPERATOR_ACTIONS,
  support: ['overview', 'merchants.read', 'payments.read', 'payments.resend', 'payments.check', 'disputes', 'bank_accounts', 'users.read'],
  finance: ['overview', 'merchants.read', 'commissions.read', 'payments.read', 'ledger', 'exports', 'reconciliation', 'audit'],
};

export const OPERATOR_ROLE_NAMES: readonly OperatorRole[] = ['admin', 'support', 'finance'];

export function operatorMay(role: OperatorRole, action: OperatorAction): boolean {
  return ALLOWED[role].includes(action);
}

export function isOperatorRole(value: unknown): value is OperatorRole {
  return typeof value === 'string' && (OPERATOR_ROLE_NAMES as readonly string[]).includes(value);
}
