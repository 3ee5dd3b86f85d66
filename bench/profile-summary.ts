// `node bench/profile-summary.ts <file.cpuprofile> [self|total] [rows]`: where a server's CPU went, from
// a profile written under BENCH_CPU_PROF_DIR. `self` sums self time per package (per file for drizzle-orm,
// per file for our own code); `total` sums inclusive time per function, to see which call paths cost.
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number; // µs
  endTime: number; // µs
  samples: number[];
  timeDeltas: number[]; // µs
}

const ROWS_DEFAULT = 30;
const PROJECT_FOLDER_PATTERN = /\/(src|bench)\/(.*)$/;

function placeOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return `(${functionName || 'native'})`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)(\/.*)?$/.exec(url);
  if (dependency) return dependency[1] === 'drizzle-orm' ? `drizzle-orm${dependency[2] ?? ''}` : dependency[1]!;
  const own = PROJECT_FOLDER_PATTERN.exec(url);
  return own ? `${own[1]}/${own[2]}` : url;
}

const functionOf = (node: ProfileNode) => `${node.callFrame.functionName || '(anonymous)'} ${placeOf(node)}:${node.callFrame.lineNumber + 1}`;

function summarize(profile: CpuProfile, mode: 'self' | 'total'): Map<string, number> {
  const nodesById = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, index) => {
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
  const sums = new Map<string, number>();
  for (const [id, microseconds] of selfUs) {
    if (mode === 'self') {
      const key = placeOf(nodesById.get(id)!);
      sums.set(key, (sums.get(key) ?? 0) + microseconds);
      continue;
    }
    const counted = new Set<string>(); // a recursive function counts once per sample
    for (let current: number | undefined = id; current !== undefined; current = parentOf.get(current)) {
      const key = functionOf(nodesById.get(current)!);
      if (counted.has(key)) continue;
      counted.add(key);
      sums.set(key, (sums.get(key) ?? 0) + microseconds);
    }
  }
  return sums;
}

const [path, modeArgument = 'self', rowsArgument] = process.argv.slice(2);
if (!path || (modeArgument !== 'self' && modeArgument !== 'total')) {
  process.stderr.write('usage: node bench/profile-summary.ts <file.cpuprofile> [self|total] [rows]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
const sampledUs = profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
const rows = Number(rowsArgument ?? ROWS_DEFAULT);
process.stdout.write(`${(sampledUs / 1000).toFixed(0)} ms sampled over ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms (start-up included)\n`);
for (const [key, microseconds] of [...summarize(profile, modeArgument)].sort((left, right) => right[1] - left[1]).slice(0, rows)) {
  process.stdout.write(`${(microseconds / 1000).toFixed(0).padStart(7)} ms ${((100 * microseconds) / sampledUs).toFixed(1).padStart(5)} %  ${key}\n`);
}
