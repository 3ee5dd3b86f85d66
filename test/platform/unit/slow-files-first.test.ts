import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOWEST_FIRST } from '../../support/slow-files-first.ts';

// A renamed or removed test file would silently drop out of the list that starts the slowest files first.
describe('the files the suite starts first', () => {
  it('all exist', () => {
    expect(SLOWEST_FIRST.filter((file) => !existsSync(file))).toEqual([]);
    expect(new Set(SLOWEST_FIRST).size).toBe(SLOWEST_FIRST.length);
  });
});
