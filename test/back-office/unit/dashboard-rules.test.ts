import { describe, expect, it } from 'vitest';
import { modeSwitchTarget } from '../../../src/back-office/routes/dashboard/session-pages.ts';
import { passwordProblem } from '../../../src/back-office/domain/password-rules.ts';
import { MEMBER_ROLE_NAMES, roleMay, type DashboardAction } from '../../../src/back-office/domain/roles.ts';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS, sessionAlive } from '../../../src/back-office/domain/session-times.ts';
import { loadConfig } from '../../../src/platform/config.ts';

describe('dashboard passwords', () => {
  it.each([
    ['short-1', 'must be at least 12 characters'],
    ['password1234', 'is too common'],
    ['Password1234!', 'is too common'],
    ['qwertyuiop123', 'is too common'],
    ['aaaaaaaaaaaaab', 'repeats too few characters'],
    ['alice.smith-2026-xyz', 'must not contain your e-mail address'],
  ])('refuses %s', (password, problem) => {
    expect(passwordProblem(password, 'alice.smith@shop.example')).toContain(problem);
  });

  it('accepts a long uncommon password', () => {
    expect(passwordProblem('tangerine-ladder-velvet-9', 'alice@shop.example')).toBeNull();
  });
});

describe('dashboard roles', () => {
  const table: Record<string, DashboardAction[]> = {
    owner: ['read', 'refund', 'resend', 'payout', 'dispute', 'keys', 'developer_settings', 'team', 'business'],
    developer: ['read', 'keys', 'developer_settings', 'resend'],
    support: ['read', 'refund', 'resend', 'dispute'],
    viewer: ['read'],
  };
  const actions: DashboardAction[] = ['read', 'refund', 'resend', 'payout', 'dispute', 'keys', 'developer_settings', 'team', 'business'];
  it.each(MEMBER_ROLE_NAMES.flatMap((role) => actions.map((action) => [role, action] as const)))('%s may %s only as the issue says', (role, action) => {
    expect(roleMay(role, action)).toBe(table[role]!.includes(action));
  });
});

describe('dashboard sessions', () => {
  const start = new Date('2026-01-01T00:00:00Z');
  const session = (lastSeenMsAgo: number, endedAt: Date | null = null) => ({
    lastSeenAt: new Date(start.getTime() - lastSeenMsAgo),
    expiresAt: new Date(start.getTime() + 60_000),
    endedAt,
  });
  it('lives until idle for 30 minutes, its absolute end, or its end', () => {
    expect(sessionAlive(session(SESSION_IDLE_MS - 1), start)).toBe(true);
    expect(sessionAlive(session(SESSION_IDLE_MS), start)).toBe(false);
    expect(sessionAlive(session(0, start), start)).toBe(false);
    expect(sessionAlive({ lastSeenAt: start, expiresAt: start, endedAt: null }, start)).toBe(false);
    expect(SESSION_ABSOLUTE_MS).toBe(12 * 3_600_000);
  });
});

describe('PAYRAIL_SIGNUP', () => {
  it('is open in the embedded start and closed with DATABASE_URL, unless set', () => {
    expect(loadConfig({}).signUp).toBe('open');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/payrail' }).signUp).toBe('closed');
    expect(loadConfig({ DATABASE_URL: 'postgres://db/payrail', PAYRAIL_SIGNUP: 'open' }).signUp).toBe('open');
    expect(() => loadConfig({ PAYRAIL_SIGNUP: 'maybe' })).toThrow(/PAYRAIL_SIGNUP/);
  });
});

describe('the test-mode switch', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard/payments?status=approved', '/dashboard/payments?status=approved'],
    ['/dashboard/payments/abc123', '/dashboard/payments'],
    ['/dashboard/developers/console', '/dashboard/developers'],
    ['https://evil.example/', '/dashboard'],
    ['//evil.example/dashboard', '/dashboard'],
    ['/dashboardx', '/dashboard'],
  ])('goes from %s back to %s', (back, target) => {
    expect(modeSwitchTarget(back)).toBe(target);
  });
});
