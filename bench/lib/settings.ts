import type { EngineName } from './report.ts';

const CONNECTIONS_DEFAULT = 50;
const DURATION_S_DEFAULT = 10;
const WARMUP_S_DEFAULT = 2;
const SETTING_MAX = 3_600;
const ENGINES_ALL: readonly EngineName[] = ['postgres', 'pglite'];
// create: variant A, redirect flow (answers init); h2h: Host-to-Host with a card the sandbox approves at once;
// refund: partial refunds of approved payments; payout: card payouts the sandbox approves at once.
export type ScenarioName = 'create' | 'h2h' | 'refund' | 'payout';
const SCENARIOS_ALL: readonly ScenarioName[] = ['create', 'h2h', 'refund', 'payout'];

export interface Settings {
  connections: number; // BENCH_CONNECTIONS
  durationS: number; // BENCH_DURATION_S, per server, after the warm-up
  warmupS: number; // BENCH_WARMUP_S, load that is not counted
  engines: EngineName[]; // BENCH_ENGINES, e.g. "postgres" for a quick trial
  scenarios: ScenarioName[]; // BENCH_SCENARIOS: Payrail's workloads, each measured after the engine's baseline
  cpuProfileDir: string | null; // BENCH_CPU_PROF_DIR: servers run with --cpu-prof and write profiles there
  overrides: string[]; // the BENCH_* variables that were set, to record the exact command
}

export function readSettings(environment: NodeJS.ProcessEnv): Settings {
  const overrides: string[] = [];
  const integer = (name: string, fallback: number, minimum: number): number => {
    const raw = environment[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < minimum || value > SETTING_MAX) {
      throw new Error(`${name} must be an integer from ${minimum} to ${SETTING_MAX}, not "${raw}"`);
    }
    overrides.push(`${name}=${raw}`);
    return value;
  };
  const connections = integer('BENCH_CONNECTIONS', CONNECTIONS_DEFAULT, 1);
  const durationS = integer('BENCH_DURATION_S', DURATION_S_DEFAULT, 1);
  const warmupS = integer('BENCH_WARMUP_S', WARMUP_S_DEFAULT, 0);
  const enginesRaw = environment['BENCH_ENGINES'];
  let engines = [...ENGINES_ALL];
  if (enginesRaw) {
    engines = enginesRaw.split(',').map((name) => name.trim()) as EngineName[];
    if (engines.some((engine) => !ENGINES_ALL.includes(engine))) {
      throw new Error(`BENCH_ENGINES must list ${ENGINES_ALL.join(' and/or ')}, not "${enginesRaw}"`);
    }
    overrides.push(`BENCH_ENGINES=${enginesRaw}`);
  }
  const scenariosRaw = environment['BENCH_SCENARIOS'];
  let scenarios = [...SCENARIOS_ALL];
  if (scenariosRaw) {
    const named = scenariosRaw.split(',').map((name) => name.trim());
    if (named.some((name) => !(SCENARIOS_ALL as readonly string[]).includes(name))) {
      throw new Error(`BENCH_SCENARIOS must list ${SCENARIOS_ALL.join(' and/or ')}, not "${scenariosRaw}"`);
    }
    scenarios = SCENARIOS_ALL.filter((scenario) => named.includes(scenario)); // always in the documented order
    overrides.push(`BENCH_SCENARIOS=${scenariosRaw}`);
  }
  const cpuProfileDir = environment['BENCH_CPU_PROF_DIR'] || null;
  if (cpuProfileDir) overrides.push(`BENCH_CPU_PROF_DIR=${cpuProfileDir}`);
  return { connections, durationS, warmupS, engines, scenarios, cpuProfileDir, overrides };
}
