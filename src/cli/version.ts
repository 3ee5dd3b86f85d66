import { readFileSync } from 'node:fs';
import { textAt } from '../platform/lib/json-path.ts';

// The version of the package this CLI belongs to (package.json beside src/).
export function payrailVersion(): string {
  const packageJson: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  return textAt(packageJson, 'version') ?? 'unknown';
}
