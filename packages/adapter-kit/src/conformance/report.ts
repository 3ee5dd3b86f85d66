import type { ConformanceReport } from './options.ts';

const MARKS = { pass: 'PASS', fail: 'FAIL', skip: 'SKIP' } as const;

// The report as text: one line per check, then a summary line.
export function formatReport(report: ConformanceReport): string {
  const width = Math.max(...report.checks.map((check) => check.name.length), 0);
  const lines = report.checks.map((check) => `${MARKS[check.outcome]}  ${check.name.padEnd(width)}  ${check.reason}`);
  const count = (outcome: keyof typeof MARKS) => report.checks.filter((check) => check.outcome === outcome).length;
  lines.push('', `${report.passed ? 'conformant' : 'NOT conformant'}: ${count('pass')} passed, ${count('fail')} failed, ${count('skip')} skipped`);
  return lines.join('\n');
}
