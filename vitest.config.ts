import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';
import { SlowFilesFirst } from './test/support/slow-files-first.ts';

// The workers, and the servers and CLIs the tests spawn (~400 processes), share V8's compiled code and Node's stripped
// TypeScript through Node's compile cache (keyed by content): a CLI process costs 1.2 CPU-s instead of 1.5.
process.env['NODE_COMPILE_CACHE'] ??= join(tmpdir(), 'payrail-node-compile-cache');
// The workspace packages' sources, not their built dist/ (packages/adapter-kit/package.json "payrail-source"), in the
// workers and in every process they spawn.
if (!process.env['NODE_OPTIONS']?.includes('--conditions=payrail-source')) {
  process.env['NODE_OPTIONS'] = `${process.env['NODE_OPTIONS'] ?? ''} --conditions=payrail-source`.trim();
}

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    // A hook that starts a service (a spawned `payrail start`, a migrated database) waits up to 90 s for it on a loaded
    // 2-core host (cli-server-discovery's START_WAIT_MS): at 60 s the hook, not the wait, gave up first (2026-11-29).
    hookTimeout: 120_000,
    pool: 'forks',
    // On a 2-core machine the suite is CPU-bound: six files at a time took no less wall time than four, and on a slow
    // machine made timing-sensitive tests fail (2026-11-27: 13:29 and four timing failures with six, 11:25 with four).
    maxWorkers: 4,
    // Each worker imports the app's module graph once, not once per file: importing it was the largest share of
    // the suite's time. Files share module-level caches (compiled route schemas, prepared statements keyed by a
    // database handle) and the PGlites test/support/databases.ts empties and hands to the next file.
    isolate: false,
    // Services and CLIs the tests spawn hash passwords at a test cost (the harnesses set the same).
    env: { PAYRAIL_PASSWORD_SCRYPT_LOG_N: '10' },
    sequence: { sequencer: SlowFilesFirst },
    // Node runs the TypeScript itself (type stripping, as `npm start` does) instead of Vite's module runner: a
    // worker imports the app in 3 s instead of 8, and no test mocks modules (vi.mock needs the runner).
    experimental: { viteModuleRunner: false, nodeLoader: false },
  },
});
