import { readFileSync } from 'node:fs';

// The version of the package this CLI belongs to (package.json beside src/).
export function payrailVersion(): string {
  const packageJson = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: unknown };
  return typeof packageJson.version === 'string' ? packageJson.version : 'unknown';
}
