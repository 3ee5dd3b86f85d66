import { AsyncLocalStorage } from 'node:async_hooks';

// Who is acting, for the audit log (audit_events): set once per request or worker pass, read by the database layer,
// which hands it to every transaction (payrail.actor, payrail.action, payrail.request_id, payrail.ip), so the
// tables' audit triggers record the actor of each change in the same transaction as the change.

// operator:<id> | member:<id> | key:<merchant key prefix> | admin-key | system:<worker>, and the core banking API's
// user:<profile id> (a session) and app-token:<id> (an internal service)
export type AuditActor =
  | `operator:${number}`
  | `member:${number}`
  | `key:${string}`
  | 'admin-key'
  | `system:${string}`
  | `user:${number}`
  | `app-token:${number}`;

export interface AuditContext {
  actor: AuditActor | null; // null until the request's authentication says who it is
  action: string | null; // what the actor set out to do (`merchant.approve`); null: the trigger names it from the change
  requestId: string | null;
  ipAddress: string | null;
}

const ACTOR_PATTERN =
  /^(operator:[0-9]{1,18}|member:[0-9]{1,18}|user:[0-9]{1,18}|app-token:[0-9]{1,18}|key:[A-Za-z0-9_-]{1,40}|admin-key|system:[a-z0-9-]{1,40})$/;
const ACTION_PATTERN = /^[a-z_]{1,40}\.[a-z_]{1,40}$/;

const storage = new AsyncLocalStorage<AuditContext>();

function isAuditActor(value: string): value is AuditActor {
  return ACTOR_PATTERN.test(value);
}

// Runs `work` with a context of its own (a request's onRequest hook, a worker's pass); the callback form keeps the
// context for everything `work` starts.
export function runInAuditContext<T>(context: AuditContext, work: () => T): T {
  return storage.run(context, work);
}

export function currentAuditContext(): AuditContext | null {
  return storage.getStore() ?? null;
}

export function currentActor(): AuditActor | null {
  return storage.getStore()?.actor ?? null;
}

// Said by the authentication of a request once it knows who is calling.
export function setAuditActor(actor: AuditActor): void {
  if (!isAuditActor(actor)) throw new Error(`not an audit actor: ${actor}`);
  const context = storage.getStore();
  if (context) context.actor = actor;
}

// Said by a route before it calls its flow: the rows the flow changes are recorded under this action.
export function setAuditAction(action: string): void {
  if (!ACTION_PATTERN.test(action)) throw new Error(`not an audit action: ${action}`);
  const context = storage.getStore();
  if (context) context.action = action;
}

// A worker's pass: every change it makes is the system's, named after the worker.
export function asSystem<T>(worker: string, work: () => Promise<T>): Promise<T> {
  return runInAuditContext({ actor: `system:${worker}`, action: null, requestId: null, ipAddress: null }, work);
}
