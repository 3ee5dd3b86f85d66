// The one CSV writer lives in platform/lib/csv.ts (payments' exports and reconciliation reports write it too).
export { csvField, csvLine, type CsvValue } from '../../platform/lib/csv.ts';
