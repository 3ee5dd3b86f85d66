// What each member role of a merchant's team may do in the dashboard (issue: owner, developer, support, viewer).
// Every route checks its action on the server; pages hide what the role cannot do with the same table.

export type MemberRole = 'owner' | 'developer' | 'support' | 'viewer';

export type DashboardAction =
  | 'read' // every page, read only
  | 'refund' // refund, capture, void, cancel
  | 'resend' // notifications again
  | 'payout' // send a payout
  | 'dispute' // evidence, answers
  | 'keys' // API keys, rotation, production key
  | 'developer_settings' // callback and redirect URLs, sandbox console
  | 'team' // invite, change roles, remove members
  | 'business'; // display name

const ALLOWED: Readonly<Record<MemberRole, readonly DashboardAction[]>> = {
  owner: ['read', 'refund', 'resend', 'payout', 'dispute', 'keys', 'developer_settings', 'team', 'business'],
  developer: ['read', 'keys', 'developer_settings', 'resend'],
  support: ['read', 'refund', 'resend', 'dispute'],
  viewer: ['read'],
};

export const MEMBER_ROLE_NAMES: readonly MemberRole[] = ['owner', 'developer', 'support', 'viewer'];

export function roleMay(role: MemberRole, action: DashboardAction): boolean {
  return ALLOWED[role].includes(action);
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLE_NAMES as readonly string[]).includes(value);
}
