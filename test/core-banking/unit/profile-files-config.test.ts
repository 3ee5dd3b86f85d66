import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/platform/config.ts';

describe('PAYRAIL_PROFILE_FILES_DIR', () => {
  it('defaults to profile-files in the data folder', () => {
    expect(loadConfig({}).profileFilesDir).toBe(resolve('./data/profile-files'));
    expect(loadConfig({ PAYRAIL_DATA_DIR: '/var/lib/payrail' }).profileFilesDir).toBe('/var/lib/payrail/profile-files');
    expect(loadConfig({ PAYRAIL_DATA_DIR: '/d', PAYRAIL_PROFILE_FILES_DIR: '' }).profileFilesDir).toBe('/d/profile-files');
  });

  it('takes a folder of its own, resolved against the working folder', () => {
    expect(loadConfig({ PAYRAIL_PROFILE_FILES_DIR: '/srv/kyc' }).profileFilesDir).toBe('/srv/kyc');
    expect(loadConfig({ PAYRAIL_PROFILE_FILES_DIR: 'kyc' }).profileFilesDir).toBe(join(process.cwd(), 'kyc'));
  });
});
