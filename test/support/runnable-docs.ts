import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

// A fenced block opened with ```sh runnable is a promise that it runs as written, in order, after the README's
// quick start, against a fresh `npm start`.
const RUNNABLE_FENCE = /^```sh runnable\s*$/;
const SHELL_FENCE = /^```(sh|bash|shell)\b/;
const CLOSING_FENCE = /^```\s*$/;

export interface ShellBlock {
  file: string;
  line: number;
  runnable: boolean;
  code: string;
}

// README.md first (its quick start sets the variables), then docs/*.md in name order.
export function documentedFiles(repositoryRoot: string): string[] {
  const docs = readdirSync(join(repositoryRoot, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs];
}

export function shellBlocks(repositoryRoot: string, file: string): ShellBlock[] {
  const lines = readFileSync(join(repositoryRoot, file), 'utf8').split('\n');
  const blocks: ShellBlock[] = [];
  let open: { line: number; runnable: boolean; body: string[] } | null = null;
  let insideOtherFence = false;
  lines.forEach((text, index) => {
    if (open) {
      if (CLOSING_FENCE.test(text)) {
        blocks.push({ file, line: open.line, runnable: open.runnable, code: open.body.join('\n') });
        open = null;
      } else open.body.push(text);
      return;
    }
    if (insideOtherFence) {
      if (CLOSING_FENCE.test(text)) insideOtherFence = false;
      return;
    }
    if (SHELL_FENCE.test(text)) open = { line: index + 1, runnable: RUNNABLE_FENCE.test(text), body: [] };
    else if (text.startsWith('```')) insideOtherFence = true;
  });
  return blocks;
}

// One command per entry: continuation lines (ending in a backslash) joined, comments and blank lines dropped.
export function shellCommands(code: string): string[] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((text) => text.trim())
    .filter((text) => text !== '' && !text.startsWith('#'));
}

// One bash script running every block in order; a failing command names its block.
export function scriptOf(blocks: ShellBlock[]): string {
  const parts = ['set -eEuo pipefail', `trap 'echo "runnable docs: failed in $DOC_BLOCK (exit $?)" >&2' ERR`];
  for (const block of blocks) {
    parts.push(`DOC_BLOCK='${block.file}:${block.line}'`, `echo "--- $DOC_BLOCK" >&2`, block.code);
  }
  return `${parts.join('\n')}\n`;
}

// The examples use curl and jq. Outside CI a machine without them skips the run loudly; under CI=true it fails instead.
function onPath(command: string): boolean {
  try {
    execFileSync('bash', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const missingTools = ['bash', 'curl', 'jq'].filter((command) => !onPath(command));
export const runnableDocsRunnable = missingTools.length === 0 || process.env['CI'] === 'true';
if (!runnableDocsRunnable) console.warn(`no ${missingTools.join(', ')} on the PATH: the runnable docs are SKIPPED (apt-get install curl jq)`);
