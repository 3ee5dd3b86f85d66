// `node bench/profile-summary.ts <file.cpuprofile> [self|total] [rows] [--from S] [--to S] [--requests N]`: where a
// server's CPU went, from a profile written under BENCH_CPU_PROF_DIR. `self` sums self time per package (per file for
// drizzle-orm, per file for our own code); `total` sums inclusive time per function, to see which call paths cost.
// A profile covers the server's whole life: its start-up (module loading, migrations, seeding) weighs as much as the
// load at a few hundred requests a second. --from and --to keep the samples of that span (seconds since the profile
// began; the busy-per-second line it prints shows where the load ran), and --requests N (the requests served in that
// span) adds µs per request.
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

interface Span {
  fromUs: number;
  toUs: number;
}

function summarize(profile: CpuProfile, mode: 'self' | 'total', span: Span): Map<string, number> {
  const nodesById = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const selfUs = new Map<number, number>();
  let atUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    atUs += delta;
    if (atUs >= span.fromUs && atUs <= span.toUs) selfUs.set(id, (selfUs.get(id) ?? 0) + delta);
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

// The share of each second the process was not idle: start-up, the warm-up and the measured load show apart.
function busyPerSecond(profile: CpuProfile): string {
  const idleIds = new Set(profile.nodes.filter((node) => node.callFrame.functionName === '(idle)').map((node) => node.id));
  const busyUs: number[] = [];
  let atUs = 0;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    atUs += delta;
    const second = Math.floor(atUs / 1e6);
    busyUs[second] = (busyUs[second] ?? 0) + (idleIds.has(id) ? 0 : delta);
  });
  return Array.from(busyUs, (us, second) => `${second}s ${Math.round((us ?? 0) / 1e4)}%`).join(', ');
}

function option(name: string): number | null {
  const at = process.argv.indexOf(name);
  if (at < 0) return null;
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} needs a number of ${name === '--requests' ? 'requests' : 'seconds'}`);
  return value;
}

const positional = process.argv.slice(2).filter((argument, index, all) => !argument.startsWith('--') && !all[index - 1]?.startsWith('--'));
const [path, modeArgument = 'self', rowsArgument] = positional;
if (!path || (modeArgument !== 'self' && modeArgument !== 'total')) {
  process.stderr.write('usage: node bench/profile-summary.ts <file.cpuprofile> [self|total] [rows] [--from S] [--to S] [--requests N]\n');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
const span: Span = { fromUs: (option('--from') ?? 0) * 1e6, toUs: (option('--to') ?? Number.POSITIVE_INFINITY) * 1e6 };
const requests = option('--requests');
const sums = summarize(profile, modeArgument, span);
const sampledUs = modeArgument === 'self' ? [...sums.values()].reduce((sum, us) => sum + us, 0) : (sums.get('(root) ((root)):0') ?? 0);
const rows = Number(rowsArgument ?? ROWS_DEFAULT);
const spanText = span.fromUs === 0 && span.toUs === Number.POSITIVE_INFINITY ? 'start-up included' : `from ${span.fromUs / 1e6} s to ${span.toUs / 1e6} s`;
process.stdout.write(`${(sampledUs / 1000).toFixed(0)} ms sampled over ${((profile.endTime - profile.startTime) / 1000).toFixed(0)} ms (${spanText})\n`);
process.stdout.write(`busy per second: ${busyPerSecond(profile)}\n`);
for (const [key, microseconds] of [...sums].sort((left, right) => right[1] - left[1]).slice(0, rows)) {
  const perRequest = requests ? `${(microseconds / requests).toFixed(1).padStart(8)} µs/request ` : '';
  process.stdout.write(
    `${(microseconds / 1000).toFixed(0).padStart(7)} ms ${((100 * microseconds) / sampledUs).toFixed(1).padStart(5)} % ${perRequest} ${key}\n`,
  );
}
