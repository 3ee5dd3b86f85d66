import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OWNER_ONLY_MODE = 0o600;

// The demo merchant's sandbox key is printed once; the quick start reads it from here (`export KEY=$(cat …)`),
// so a newcomer who lost the start's output can still follow the README. Sandbox keys move no real money.
export function demoMerchantKeyPath(dataDir: string): string {
  return join(dataDir, 'demo-merchant.key');
}

export function writeDemoMerchantKey(dataDir: string, sandboxKey: string): void {
  const path = demoMerchantKeyPath(dataDir);
  writeFileSync(path, `${sandboxKey}\n`, { mode: OWNER_ONLY_MODE });
  chmodSync(path, OWNER_ONLY_MODE);
}
