// The payments module's tables: the one import point for its stores and for other modules' stores (their foreign
// keys); each group of tables lives in a file beside this one.
export * from './tables-daily-stats.ts';
export * from './tables-merchants.ts';
export * from './tables-notifications.ts';
export * from './tables-payments.ts';
export * from './tables-reconciliation.ts';
export * from './tables-refunds-disputes.ts';
export * from './tables-status-changes.ts';
export * from './tables-test-clocks.ts';
