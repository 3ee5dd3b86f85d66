// What entry points (start-up, workers, the CLI) call of the back office.
export { addDemoOwner, DEMO_OWNER } from './flows/demo-owner.ts';
export { deleteEndedDashboardRecords } from './flows/housekeeping.ts';
export { createOperator } from './flows/operators.ts';
export { csvLine } from './domain/csv.ts';
export { recordAuditEvent } from './flows/audit-log.ts';
