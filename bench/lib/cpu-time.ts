import { readdirSync, readFileSync } from 'node:fs';

// Linux's USER_HZ: /proc reports CPU time in these ticks on every mainstream kernel.
const CLOCK_TICKS_PER_S = 100;

interface ProcStat {
  command: string;
  cpuMs: number; // user + system
}

function readProcStat(pid: number | string): ProcStat | null {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const open = text.indexOf('(');
    const close = text.lastIndexOf(')');
    const fields = text.slice(close + 2).split(' '); // fields[0] is the state, field 3 of proc(5)
    const ticks = Number(fields[11]) + Number(fields[12]); // utime and stime, fields 14 and 15
    return Number.isFinite(ticks) ? { command: text.slice(open + 1, close), cpuMs: (ticks * 1000) / CLOCK_TICKS_PER_S } : null;
  } catch {
    return null; // not Linux, or the process is gone
  }
}

// CPU time a process has used so far, or null where /proc is not available.
export function processCpuMs(pid: number): number | null {
  return readProcStat(pid)?.cpuMs ?? null;
}

// CPU time of every PostgreSQL process on the machine (backends included), or null without /proc.
// Machine-wide: other PostgreSQL clients running at the same time inflate it.
export function postgresCpuMs(): number | null {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name));
  } catch {
    return null;
  }
  let totalMs = 0;
  for (const pid of entries) {
    const stat = readProcStat(pid);
    if (stat?.command === 'postgres') totalMs += stat.cpuMs;
  }
  return totalMs;
}
