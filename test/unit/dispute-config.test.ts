import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';

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
