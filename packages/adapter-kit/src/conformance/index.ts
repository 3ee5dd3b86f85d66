export { formatReport } from './report.ts';
export { runConformance } from './run.ts';
export {
  CONFORMANCE_METHODS,
  type CheckOutcome,
  type ConformanceCheck,
  type ConformanceMethod,
  type ConformanceOptions,
  type ConformanceReport,
} from './options.ts';
export { ConformanceOptionsError } from './validate-options.ts';
