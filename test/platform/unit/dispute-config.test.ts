import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';

describe('where dispute documents are stored', () => {
  it('defaults to dispute-documents in the data folder', () => {
    expect(loadConfig({}).disputeDocumentsDir).toBe(resolve('./data/dispute-documents'));
    expect(loadConfig({ PAYRAIL_DATA_DIR: '/var/lib/payrail' }).disputeDocumentsDir).toBe('/var/lib/payrail/dispute-documents');
  });

  it('takes PAYRAIL_DISPUTE_DOCUMENTS_DIR, resolved to an absolute path', () => {
    expect(loadConfig({ PAYRAIL_DISPUTE_DOCUMENTS_DIR: '/srv/evidence' }).disputeDocumentsDir).toBe('/srv/evidence');
    expect(loadConfig({ PAYRAIL_DISPUTE_DOCUMENTS_DIR: 'evidence' }).disputeDocumentsDir).toBe(join(process.cwd(), 'evidence'));
  });

  it('treats an empty PAYRAIL_DISPUTE_DOCUMENTS_DIR as unset', () => {
    expect(loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_DISPUTE_DOCUMENTS_DIR: '' }).disputeDocumentsDir).toBe('/d/dispute-documents');
  });

  it('moves only the documents: the data folder stays where it was', () => {
    const config = loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_DISPUTE_DOCUMENTS_DIR: '/srv/evidence' });
    expect(config).toMatchObject({ dataDir: '/d', disputeDocumentsDir: '/srv/evidence' });
  });
});

describe('the evidence quota and the embedded database folder', () => {
  it('keeps 200 MiB of evidence per merchant in production and 20 MiB in the sandbox by default, each configurable', () => {
    expect(loadConfig({}).disputeEvidenceQuotaBytes).toEqual({ production: 200 * 1024 * 1024, sandbox: 20 * 1024 * 1024 });
    const configured = loadConfig({ PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES: '5000', PAYRAIL_DISPUTE_EVIDENCE_SANDBOX_QUOTA_BYTES: '0' });
    expect(configured.disputeEvidenceQuotaBytes).toEqual({ production: 5000, sandbox: 0 });
    expect(() => loadConfig({ PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES: '-1' })).toThrow(/PAYRAIL_DISPUTE_EVIDENCE_QUOTA_BYTES/);
  });

  it('stores documents beside the embedded database, never inside its folder', () => {
    const defaults = loadConfig({ PAYRAIL_DATA_DIR: '/d' });
    expect(defaults.disputeDocumentsDir.startsWith('/d/pglite')).toBe(false);
    for (const inside of ['/d/pglite', '/d/pglite/evidence', '/d/./pglite/base']) {
      expect(() => loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_DISPUTE_DOCUMENTS_DIR: inside })).toThrow(/must not be inside \/d\/pglite/);
      expect(() => loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_PROFILE_FILES_DIR: inside })).toThrow(/PAYRAIL_PROFILE_FILES_DIR must not be inside/);
    }
    expect(loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_DISPUTE_DOCUMENTS_DIR: '/d/pglite-evidence' }).disputeDocumentsDir).toBe('/d/pglite-evidence');
  });
});
