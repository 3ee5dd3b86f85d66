import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most integration files wait on PostgreSQL, sockets and timers rather than the CPU: six files at a time keep
    // two cores busier than four (whole suite 6:52 against 7:13 wall, 2026-11-27, every file passing both ways).
    maxWorkers: 4,
    // Each worker imports the app's module graph once, not once per file: importing it was the largest share of
    // the suite's time. Files share no state beyond module-level caches keyed by database.
    isolate: false,
    // Services and CLIs the tests spawn hash passwords at a test cost (the harnesses set the same).
    env: { PAYRAIL_PASSWORD_SCRYPT_LOG_N: '10' },
  },
});
