import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliAgainstRunningServer } from '../../support/cli-server.ts';
import { runAuditCommand } from '../../../src/cli/audit-commands.ts';
import { runOperatorCommand } from '../../../src/cli/operator-commands.ts';
import { runCli } from '../../support/cli.ts';
import { maintenance, migratedPostgresDatabase, testEngines } from '../../support/databases.ts';

const engines = await testEngines();

// `payrail operator create|list` and `payrail audit` against a running server, over the admin API.
describe('payrail operator and payrail audit against a running server', () => {
  const running = cliAgainstRunningServer();

  it('creates an operator, printing its password and TOTP secret once, and lists it', async () => {
    const lines: string[] = [];
    await runOperatorCommand(running.client(), 'create', { email: 'cli.ops@payrail.example', role: 'support', json: false }, (line) => lines.push(line));
    expect(lines[0]).toMatch(/^operator #\d+ cli\.ops@payrail\.example \(support\) created\. Shown this once:$/);
    expect(lines[1]).toMatch(/^ {2}password: {5}[A-Za-z0-9_-]{24}$/);
    expect(lines[3]).toMatch(/^ {2}TOTP link: {4}otpauth:\/\/totp\//);
    const listed: string[] = [];
    await runOperatorCommand(running.client(), 'list', { json: false }, (line) => listed.push(line));
    expect(listed.some((line) => / cli\.ops@payrail\.example support active since /.test(line))).toBe(true);
    await expect(runOperatorCommand(running.client(), 'create', { email: 'x@payrail.example', role: 'all', json: false }, () => {})).rejects.toThrow(
      /--role admin\|support\|finance/,
    );
  });

  it('prints the audit log newest first, as lines or CSV, with the filters', async () => {
    const merchant = await running.server().createMerchant('CLI audited');
    const lines: string[] = [];
    await runAuditCommand(running.client(), { subject: `merchant:${merchant.id}`, csv: false, json: false }, (line) => lines.push(line));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^\\S+ #\\d+ admin-key merchant\\.created merchant:${merchant.id} – → \\{"id":${merchant.id},`));
    const csv: string[] = [];
    await runAuditCommand(running.client(), { subject: `merchant:${merchant.id}`, csv: true, json: false, limit: 'all' }, (line) => csv.push(line));
    expect(csv[0]).toBe('id,occurred_at,actor,action,subject_type,subject_id,before,after,request_id,ip_address');
    expect(csv[1]).toContain(',admin-key,merchant.created,merchant,');
    await expect(runAuditCommand(running.client(), { csv: false, json: false, limit: '0' }, () => {})).rejects.toThrow(/--limit/);
  });
});

// With PostgreSQL and no PAYRAIL_ADMIN_KEY the admin key is off: the first operator is written to the database itself.
describe.runIf(engines.includes('postgres'))('payrail operator create with the admin key off', () => {
  const databaseName = `operator_cli_${process.pid}`;
  let databaseUrl: string;
  let dataDir: string;
  beforeAll(async () => {
    databaseUrl = await migratedPostgresDatabase(databaseName);
    dataDir = await mkdtemp(join(tmpdir(), 'payrail-operator-cli-'));
  });
  afterAll(async () => {
    await maintenance(`drop database if exists ${databaseName} with (force)`);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('creates the first operator on the database, and the admin API stays closed', async () => {
    const environment = { DATABASE_URL: databaseUrl, PAYRAIL_DATA_DIR: dataDir, PAYRAIL_PASSWORD_SCRYPT_LOG_N: '10' };
    const created = await runCli(['operator', 'create', '--email', 'first@payrail.example', '--role', 'admin', '--json'], environment);
    expect(created.exitCode, created.stderr).toBe(0);
    const answer = JSON.parse(created.stdout);
    expect(answer.operator).toMatchObject({ email: 'first@payrail.example', role: 'admin' });
    expect(answer.totp_secret).toMatch(/^[A-Z2-7]{16,}$/);
    const listed = await runCli(['operator', 'list', '--url', 'https://127.0.0.1:1'], environment);
    expect(listed.exitCode).toBe(4);
    expect(listed.stderr).toContain('no admin key');
  });
});
