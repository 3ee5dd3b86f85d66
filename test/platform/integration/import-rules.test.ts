import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The import rules of .dependency-cruiser.cjs have teeth: a tree holding one violation of each rule (and imports the
// rules allow) is cruised with the repository's own configuration, and every violation must be reported, by the
// rule meant to catch it, and nothing else.
const REPOSITORY_ROOT = resolve(import.meta.dirname, '../../..');
const DEPCRUISE = join(REPOSITORY_ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');

interface Case {
  rule: string;
  from: string;
  imports: string; // the module specifier the `from` file imports
}

const VIOLATIONS: readonly Case[] = [
  { rule: 'modules-meet-only-at-their-index', from: 'src/payments/flows/a.ts', imports: '../../ledger/store/ledger-repo.ts' },
  { rule: 'modules-meet-only-at-their-index', from: 'src/core-banking/flows/a.ts', imports: '../../payments/flows/refunds.ts' },
  { rule: 'only-a-store-names-another-modules-tables', from: 'src/core-banking/flows/b.ts', imports: '../../payments/store/schema.ts' },
  { rule: 'the-ledger-calls-no-module', from: 'src/ledger/flows/a.ts', imports: '../../payments/index.ts' },
  { rule: 'payments-do-not-call-core-banking', from: 'src/payments/flows/b.ts', imports: '../../core-banking/index.ts' },
  { rule: 'entry-points-meet-modules-at-their-index', from: 'src/cli/a.ts', imports: '../payments/flows/refunds.ts' },
  { rule: 'platform-is-shared-by-all-and-knows-none', from: 'src/platform/lib/a.ts', imports: '../../payments/index.ts' },
  { rule: 'the-sandbox-acquirer-stands-apart', from: 'src/sandbox-adapter/a.ts', imports: '../payments/index.ts' },
  { rule: 'nothing-imports-a-route-folder', from: 'src/payments/flows/c.ts', imports: '../routes/checkout/page.ts' },
  { rule: 'route-folders-do-not-import-each-other', from: 'src/payments/routes/checkout/a.ts', imports: '../merchant-api/schemas.ts' },
  { rule: 'routes-reach-the-store-only-through-flows', from: 'src/payments/routes/merchant-api/a.ts', imports: '../../store/payments-repo.ts' },
  { rule: 'domain-imports-only-domain-and-lib', from: 'src/payments/domain/a.ts', imports: '../flows/refunds.ts' },
  { rule: 'domain-does-no-io', from: 'src/payments/domain/b.ts', imports: 'node:fs' },
  { rule: 'domain-does-no-io', from: 'src/ledger/domain/a.ts', imports: 'pg' },
  { rule: 'domain-does-no-io', from: 'src/core-banking/domain/a.ts', imports: 'drizzle-orm' },
  { rule: 'the-store-decides-nothing-and-calls-no-flow', from: 'src/payments/store/a.ts', imports: '../flows/refunds.ts' },
  { rule: 'flows-get-configuration-passed-in', from: 'src/payments/flows/d.ts', imports: '../../platform/config.ts' },
  { rule: 'flows-do-not-reach-entry-points', from: 'src/payments/flows/e.ts', imports: '../../workers/runner.ts' },
  { rule: 'nothing-imports-a-route-folder', from: 'src/workers/a.ts', imports: '../payments/routes/checkout/page.ts' },
  { rule: 'workers-never-touch-a-store', from: 'src/workers/b.ts', imports: '../platform/database.ts' },
  { rule: 'packages-stand-alone', from: 'packages/kit/src/index.ts', imports: '../../../src/platform/lib/errors.ts' },
  { rule: 'packages-only-through-their-public-exports', from: 'src/payments/gateways/a.ts', imports: '../../../packages/kit/src/redact.ts' },
];

// Imports the rules allow: none of these may be reported.
const ALLOWED: readonly Omit<Case, 'rule'>[] = [
  { from: 'src/payments/flows/ok.ts', imports: '../../ledger/index.ts' },
  { from: 'src/core-banking/flows/ok.ts', imports: '../../payments/index.ts' },
  { from: 'src/ledger/store/ok.ts', imports: '../../payments/store/schema.ts' },
  { from: 'src/payments/domain/ok.ts', imports: 'node:crypto' },
  { from: 'src/payments/routes/merchant-api/ok.ts', imports: '../../flows/refunds.ts' },
  { from: 'src/workers/ok.ts', imports: '../payments/index.ts' },
  { from: 'src/app.ts', imports: './payments/routes/checkout/page.ts' },
  { from: 'src/payments/gateways/ok.ts', imports: '../../../packages/kit/src/index.ts' },
];

// Every file the cases import, so that each resolves (a leaf exports one constant).
const LEAVES = [
  'src/ledger/store/ledger-repo.ts',
  'src/ledger/index.ts',
  'src/payments/flows/refunds.ts',
  'src/payments/store/schema.ts',
  'src/payments/store/payments-repo.ts',
  'src/payments/index.ts',
  'src/core-banking/index.ts',
  'src/payments/routes/checkout/page.ts',
  'src/payments/routes/merchant-api/schemas.ts',
  'src/platform/config.ts',
  'src/platform/database.ts',
  'src/platform/lib/errors.ts',
  'src/workers/runner.ts',
  'packages/kit/src/redact.ts',
];

interface Violation {
  rule: { name: string };
  from: string;
  to: string;
}

let root = '';
let violations: Violation[] = [];

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'payrail-import-rules-'));
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  };
  writeFileSync(join(root, 'tsconfig.json'), '{}');
  // packages/kit/src/index.ts is both a violating file and an allowed target: it exports its own constant too.
  const byFile = new Map<string, string[]>();
  for (const { from, imports } of [...VIOLATIONS, ...ALLOWED]) byFile.set(from, [...(byFile.get(from) ?? []), imports]);
  for (const leaf of LEAVES) if (!byFile.has(leaf)) byFile.set(leaf, []);
  let n = 0;
  for (const [file, specifiers] of byFile) {
    const lines = specifiers.map((specifier) => `import * as m${n++} from '${specifier}';\nconsole.log(m${n - 1});`);
    write(file, `${lines.join('\n')}\nexport const value${n++} = 1;\n`);
  }
  const output = join(root, 'cruise.json');
  const args = [DEPCRUISE, 'src', 'packages', '--config', join(REPOSITORY_ROOT, '.dependency-cruiser.cjs'), '--output-type', 'json', '--output-to', output];
  await promisify(execFile)(process.execPath, args, { cwd: root }).catch(() => undefined); // exits non-zero on violations
  const result: unknown = JSON.parse(readFileSync(output, 'utf8'));
  violations = readViolations(result);
}, 60_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function readViolations(result: unknown): Violation[] {
  if (typeof result !== 'object' || result === null || !('summary' in result)) throw new Error('depcruise gave no summary');
  const summary = result.summary;
  if (typeof summary !== 'object' || summary === null || !('violations' in summary) || !Array.isArray(summary.violations)) {
    throw new Error('depcruise gave no violations list');
  }
  return summary.violations;
}

describe('the import rules', () => {
  it.each(VIOLATIONS.map((violation) => [violation.rule, violation.from, violation]))('%s catches %s', (_rule, _from, violation) => {
    const caught = violations.filter((found) => found.from === violation.from && found.rule.name === violation.rule);
    expect(caught, JSON.stringify(violations.filter((found) => found.from === violation.from))).toHaveLength(1);
  });

  it('let the imports the architecture allows through, and catch nothing else', () => {
    const expected = new Set(VIOLATIONS.map((violation) => `${violation.rule} ${violation.from}`));
    const unexpected = violations.filter((found) => !expected.has(`${found.rule.name} ${found.from}`) && found.rule.name !== 'no-orphans');
    expect(unexpected.map((found) => `${found.rule.name}: ${found.from} → ${found.to}`)).toEqual([]);
  });
});
