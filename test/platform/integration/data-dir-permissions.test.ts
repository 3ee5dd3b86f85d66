import { chmodSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';
import { loadTls } from '../../../src/platform/lib/tls.ts';
import { openStore } from '../../../src/platform/runtime/open-store.ts';
import { loadSecrets } from '../../../src/platform/runtime/secrets.ts';

// Starting a whole service (an embedded database migrated on disk, TLS, workers) takes seconds, many more on a
// loaded machine: these tests get more than the default 30 s.
const STARTS_A_SERVICE_MS = 120_000;

const modeOf = (path: string) => statSync(path).mode & 0o777;

describe("the data folder is its owner's alone", { timeout: STARTS_A_SERVICE_MS }, () => {
  let parent = '';
  afterEach(async () => {
    if (parent) await rm(parent, { recursive: true, force: true });
  });

  it('tightens a folder the operator created 0755, with a 0644 file and a 0755 subfolder, to 0700/0600 at start-up', async () => {
    parent = await mkdtemp(join(tmpdir(), 'payrail-perm-'));
    const dataDir = join(parent, 'data');
    mkdirSync(join(dataDir, 'pglite', 'base'), { recursive: true });
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'pglite'), 0o755);
    chmodSync(join(dataDir, 'pglite', 'base'), 0o755);
    writeFileSync(join(dataDir, 'notes.txt'), 'operator notes', { mode: 0o644 });
    writeFileSync(join(dataDir, 'pglite', 'base', '1259'), 'relation', { mode: 0o666 });
    chmodSync(join(dataDir, 'pglite', 'base', '1259'), 0o666);
    writeFileSync(join(parent, 'outside.txt'), 'not ours', { mode: 0o644 });
    chmodSync(join(parent, 'outside.txt'), 0o644);
    symlinkSync(join(parent, 'outside.txt'), join(dataDir, 'link-to-outside'));

    const config = loadConfig({ PAYRAIL_DATA_DIR: dataDir });
    loadSecrets(config);
    await loadTls(config.dataDir, null, null);

    expect(modeOf(dataDir)).toBe(0o700);
    expect(modeOf(join(dataDir, 'pglite'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'pglite', 'base'))).toBe(0o700);
    expect(modeOf(join(dataDir, 'notes.txt'))).toBe(0o600);
    expect(modeOf(join(dataDir, 'pglite', 'base', '1259'))).toBe(0o600);
    for (const created of ['master.key', 'admin.key', 'tls', join('tls', 'cert.pem'), join('tls', 'key.pem')]) {
      expect(modeOf(join(dataDir, created)), created).toBe(created === 'tls' ? 0o700 : 0o600);
    }
    expect(modeOf(join(parent, 'outside.txt'))).toBe(0o644); // a link is not followed out of the folder
  });

  it('keeps the embedded database folder 0700/0600 although PGlite creates its files 0666', async () => {
    parent = await mkdtemp(join(tmpdir(), 'payrail-perm-'));
    const dataDir = join(parent, 'data');
    const store = await openStore(loadConfig({ PAYRAIL_DATA_DIR: dataDir }));
    try {
      const loose = readdirSync(join(dataDir, 'pglite'), { recursive: true, withFileTypes: true })
        .filter((entry) => !entry.isSymbolicLink())
        .map((entry) => join(entry.parentPath, entry.name))
        .filter((path) => modeOf(path) !== (statSync(path).isDirectory() ? 0o700 : 0o600));
      expect(loose).toEqual([]);
      expect(modeOf(dataDir)).toBe(0o700);
    } finally {
      await store.close();
    }
  });
});
