// What entry points (start-up, workers) call of the back office.
export { addDemoOwner, DEMO_OWNER } from './flows/demo-owner.ts';
export { deleteEndedDashboardRecords } from './flows/housekeeping.ts';
