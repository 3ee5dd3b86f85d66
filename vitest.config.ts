import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Most integration files wait on PostgreSQL, sockets, browsers and timers (a 70 s slow adapter, server
    // processes starting) rather than the CPU: six files at a time keep two cores busy.
    maxWorkers: 6,
  },
});
