import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run lint`'s file-size check (scripts/check-file-size.ts) has teeth: run on a tree holding files of 300 and 301
// lines under src/ and a package's src/, it fails naming exactly the longer ones.
const SCRIPT = resolve(import.meta.dirname, '../../../scripts/check-file-size.ts');
const root = mkdtempSync(join(tmpdir(), 'payrail-file-size-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function writeLines(path: string, lines: number, finalNewline = true): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  const text = Array.from({ length: lines }, (_, index) => `export const line${index} = ${index};`).join('\n');
  writeFileSync(join(root, path), finalNewline ? `${text}\n` : text);
}

describe('the file-size check', () => {
  it('passes files of 300 lines and fails on 301, in src/ and in a package, schema files included', () => {
    writeLines('src/payments/store/schema.ts', 300);
    writeLines('src/payments/flows/long.ts', 301, false);
    writeLines('packages/kit/src/long.ts', 301);
    writeLines('packages/kit/node_modules/dep/huge.ts', 900);
    const run = spawnSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('src/payments/flows/long.ts  301 lines');
    expect(run.stderr).toContain('packages/kit/src/long.ts  301 lines');
    expect(run.stderr).not.toContain('schema.ts');
    expect(run.stderr).not.toContain('huge.ts');
  });

  it('passes the repository as it stands', () => {
    const run = spawnSync(process.execPath, [SCRIPT], { encoding: 'utf8' });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
