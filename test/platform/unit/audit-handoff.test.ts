import { describe, expect, it } from 'vitest';
import { writesAuditEvent } from '../../../src/platform/audit-handoff.ts';

// Which statements get the actor handed over (migration 0015's triggers): every write of a wholly audited table; of
// refunds and bank accounts (audited on insert and on a change of status) an insert, a delete, or an UPDATE whose SET
// list may change status. Statement texts as drizzle writes them.
describe('the audit hand-off reads which statements write an audit event', () => {
  it.each([
    'update "merchants" set "display_name" = $1 where "merchants"."id" = $2',
    'insert into "gateways" ("id", "alias") values (default, $1)',
    'delete from commissions where merchant_id = $1',
    'insert into "refunds" ("id", "token", "status") values (default, $1, $2) returning "id"',
    'update "refunds" set "status" = $1, "gateway_token" = $2 where ("refunds"."id" = $3 and "refunds"."status" = $4)',
    'update "refunds" set "gateway_token" = $1, "status" = $2 where "refunds"."id" = $3',
    'with moved as (update "bank_accounts" set "status" = $1 where id = $2 returning id) select * from moved',
    'update refunds set status = $1',
    'update "refunds" set "exchange_until" = (select now() where true), "status" = $1 where "refunds"."id" = $2',
  ])('hands the actor to %s', (text) => {
    expect(writesAuditEvent(text)).toBe(true);
  });

  it.each([
    'update "refunds" set "exchange_until" = $1 where ("refunds"."id" = $2 and "refunds"."status" = $3 and ("refunds"."exchange_until" is null or "refunds"."exchange_until" <= $4)) returning "id"',
    'update "refunds" set "exchange_until" = $1 where ("refunds"."id" = $2 and "refunds"."exchange_until" = $3)',
    'update "bank_accounts" set "last_used_at" = $1 where "bank_accounts"."id" = $2',
    'select "id", "status" from "refunds" where "refunds"."status" = $1',
    'insert into "payments" ("id", "status") values (default, $1)',
    'update "payments" set "status" = $1 where "payments"."id" = $2',
    'update "refunds_archive" set "status" = $1 where id = $2',
  ])('leaves %s alone', (text) => {
    expect(writesAuditEvent(text)).toBe(false);
  });
});
