// The core banking module's tables: the one import point for its stores and for other modules' stores (their
// foreign keys); each group of tables lives in a file beside this one.
export * from './tables-accounts.ts';
export * from './tables-profiles.ts';
