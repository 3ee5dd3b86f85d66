import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { backoffMs, BACKOFF_CAP_MS, retryAfterMs } from '../src/retry-policy.ts';

const packageRoot = fileURLToPath(new URL('..', import.meta.url));
const sourceFiles = readdirSync(join(packageRoot, 'src')).filter((name) => name.endsWith('.ts'));
const OLDEST_NODE = '/usr/bin/node'; // this machine's system Node (20); the suite itself runs on 24

// Issue 23: zero runtime dependencies, nothing Node-only in the source, so it runs on Node ≥ 20, Deno and Bun.
describe('the @payrail/client package', () => {
  const outDir = mkdtempSync(join(tmpdir(), 'payrail-client-build-'));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  it('has no runtime dependency', () => {
    const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies ?? {}).toEqual({});
    expect(manifest.exports['.']).toEqual({ types: './dist/src/index.d.ts', import: './dist/src/index.js' });
  });

  it('imports nothing but its own files, and no Node-only global', () => {
    expect(sourceFiles.length).toBeGreaterThan(5);
    for (const name of sourceFiles) {
      const text = readFileSync(join(packageRoot, 'src', name), 'utf8');
      const imported = [...text.matchAll(/\bfrom\s+'([^']+)'/g)].map((match) => match[1]);
      expect(
        imported.filter((specifier) => !specifier?.startsWith('./') && !specifier?.startsWith('../generated/')),
        name,
      ).toEqual([]);
      expect(text, name).not.toMatch(/\b(require\(|process\.|Buffer\b|__dirname|node:)/);
    }
  });

  it('builds with its own TypeScript 5 to ES modules and declarations that run on Node 20 and 24', () => {
    const tsc = join(packageRoot, 'node_modules', 'typescript', 'bin', 'tsc');
    execFileSync(process.execPath, [tsc, '-p', join(packageRoot, 'tsconfig.build.json'), '--outDir', outDir], { encoding: 'utf8' });
    expect(existsSync(join(outDir, 'src', 'index.js'))).toBe(true);
    expect(existsSync(join(outDir, 'src', 'index.d.ts'))).toBe(true);
    const script = join(outDir, 'smoke.mjs');
    writeFileSync(
      script,
      [
        "import { Payrail, verifyLegacySignature, verifyNotification, PayrailError } from './src/index.js';",
        "const payrail = new Payrail({ apiKey: 'sk_sandbox_x', baseUrl: 'https://pay.example' });",
        "const key = 'sk_sandbox_key'; const body = '{\"a\":1}'; const t = Math.floor(Date.now() / 1000);",
        "const hmacKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);",
        "const digest = Buffer.from(await crypto.subtle.sign('HMAC', hmacKey, new TextEncoder().encode(t + '.' + body))).toString('hex');",
        "const modern = await verifyNotification({ body, headers: { 'x-payrail-signature': 't=' + t + ',v1=' + digest }, merchantKey: key });",
        "const legacy = verifyLegacySignature({ token: 'a', type: 'pay', status: 'approved', amount: 1, currency: 'USD', gatewayAmount: 1, gatewayCurrency: 'USD', signature: '0' }, key);",
        'console.log(JSON.stringify({ resources: Object.keys(payrail).sort(), modern, legacy, error: new PayrailError({ status: 500, code: "x", message: "m", requestId: null, envelope: null }).name }));',
      ].join('\n'),
    );
    const runtimes = [process.execPath, ...(existsSync(OLDEST_NODE) ? [OLDEST_NODE] : [])];
    for (const runtime of runtimes) {
      const printed = JSON.parse(execFileSync(runtime, [script], { encoding: 'utf8' }));
      expect(printed, runtime).toEqual({
        resources: ['balance', 'disputes', 'events', 'notifications', 'payments', 'payouts', 'refunds', 'testClocks'],
        modern: true,
        legacy: false,
        error: 'PayrailError',
      });
    }
  });
});

describe('the retry policy of @payrail/client', () => {
  it('backs off exponentially with full jitter, up to the cap', () => {
    expect([0, 1, 2, 3].map((attempt) => backoffMs(attempt, () => 0.999_999))).toEqual([199, 399, 799, 1599]);
    expect(backoffMs(20, () => 0.999_999)).toBe(BACKOFF_CAP_MS - 1);
    expect(backoffMs(3, () => 0)).toBe(0);
  });

  it('reads Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2026-11-28T10:00:00Z');
    expect(retryAfterMs('7', now)).toBe(7000);
    expect(retryAfterMs('Sat, 28 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('Sat, 28 Nov 2026 09:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('soon', now)).toBe(null);
    expect(retryAfterMs(null, now)).toBe(null);
  });
});
