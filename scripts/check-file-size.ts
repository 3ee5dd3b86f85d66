// A file holds one job and stays within 300 lines (docs/architecture.md), schema files included. Part of
// `npm run lint`. Biome's noExcessiveLinesPerFile counts only the lines between tokens, so a long template literal
// (a hosted page's HTML) would pass it; this counts the lines an editor shows.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAX_LINES = 300;
// Another tree may be named on the command line (to show the check catches an offender); the default is this repository.
const repoRoot = process.argv[2] === undefined ? fileURLToPath(new URL('..', import.meta.url)) : resolve(process.argv[2]);

function sourceRoots(): string[] {
  const packagesDir = join(repoRoot, 'packages');
  const packageSources = readdirSync(packagesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => join(packagesDir, entry.name, 'src'))
    .filter((dir) => existsSync(dir));
  return [join(repoRoot, 'src'), ...packageSources];
}

function typeScriptFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.split(/[\\/]/).includes('node_modules'))
    .map((path) => join(root, path));
}

function lineCount(text: string): number {
  if (text.length === 0) return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

const files = sourceRoots().flatMap(typeScriptFiles);
const offenders = files
  .map((file) => ({ file: relative(repoRoot, file), lines: lineCount(readFileSync(file, 'utf8')) }))
  .filter(({ lines }) => lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));

if (offenders.length > 0) {
  console.error(`file-size: ${offenders.length} of ${files.length} files exceed ${MAX_LINES} lines; split each by job:`);
  for (const { file, lines } of offenders) console.error(`  ${file}  ${lines} lines`);
  process.exit(1);
}
console.log(`file-size: ${files.length} files, none over ${MAX_LINES} lines`);
