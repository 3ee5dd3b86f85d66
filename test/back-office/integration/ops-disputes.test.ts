import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditRowsOf } from '../../support/audit.ts';
import { gatewaySettings, signedCallback } from '../../support/callback-merchant.ts';
import { testEngines } from '../../support/databases.ts';
import { adapterAnswer, reply, startFakeAdapter, type FakeAdapter } from '../../support/fake-adapter.ts';
import { startHarness, type Harness, type TestMerchant } from '../../support/harness.ts';
import { signedInOperators, type OpsClient } from '../../support/ops.ts';
import { cardPayment } from '../../support/production-gateway.ts';
import { approvedPayment, disputeForm, pngPart, postDispute } from '../../payments/integration/disputes-fixtures.ts';

const engines = await testEngines();

// The console's disputes queue and conflicts queue: who may open and do what, each move through the admin API's flow,
// each change once in the audit log under the operator.
describe.each(engines)('operator console disputes and conflicts on %s', (engine) => {
  let harness: Harness;
  let documentsRoot: string;
  let adapter: FakeAdapter;
  let admin: OpsClient;
  let support: OpsClient;
  let finance: OpsClient;
  let merchant: TestMerchant;
  let signKey: string;

  beforeAll(async () => {
    documentsRoot = await mkdtemp(join(tmpdir(), 'payrail-ops-disputes-'));
    harness = await startHarness(engine, { PAYRAIL_DISPUTE_DOCUMENTS_DIR: join(documentsRoot, 'documents') });
    adapter = await startFakeAdapter();
    ({ admin, support, finance } = await signedInOperators(harness));
    merchant = await harness.createMerchant(`Ops disputes ${engine}`);
    const settings = gatewaySettings(adapter);
    signKey = settings.sign_key;
    const gateway = await harness.app.inject({
      method: 'POST',
      url: `/api/admin/v1/merchants/${merchant.id}/gateways`,
      headers: { authorization: `Bearer ${harness.adminKey}` },
      payload: { alias: 'acquirer', environment: 'production', settings },
    });
    expect(gateway.statusCode, gateway.body).toBe(200);
  });
  afterAll(async () => {
    await adapter?.close();
    await harness?.close();
    if (documentsRoot) await rm(documentsRoot, { recursive: true, force: true });
  });

  const db = () => harness.database.db;
  const auditOf = (action: string, subjectType: string, subjectId: string | number) => auditRowsOf(harness.database, { subjectType, subjectId, action });
  const disputeRow = async (token: string) =>
    (
      await db().execute<{ id: string | number; status: string; resolution_note: string | null }>(
        sql`select id, status, resolution_note from disputes where token = ${token}`,
      )
    ).rows[0]!;
  const openDispute = async () => {
    const payment = await approvedPayment(harness, merchant.sandboxKey, 1000);
    const opened = await postDispute(harness, merchant.sandboxKey, disputeForm(payment.token, 300, [pngPart()]));
    expect(opened.statusCode, opened.body).toBe(200);
    return { payment, token: opened.json().dispute.token as string, documentId: opened.json().dispute.documents[0].id as number };
  };

  // A declined live payment the provider later reports approved: a conflict waiting for an operator.
  const conflictOfDeclined = async () => {
    adapter.respond('pay', reply.json(adapterAnswer.pending('gw-conflict')));
    const created = await harness.merchantRequest(merchant.productionKey, {
      method: 'POST',
      url: '/api/v1/payments',
      payload: cardPayment(`conflict-${Date.now()}`),
    });
    expect(created.statusCode, created.body).toBe(200);
    const token = created.json().token as string;
    for (const status of ['declined', 'approved']) {
      const jwt = await signedCallback(signKey, merchant.productionKey, { gateway_token: 'gw-conflict', status });
      const sent = await harness.app.inject({
        method: 'POST',
        url: `/callbacks/v2/gateway_callbacks/${token}`,
        headers: { authorization: `Bearer ${jwt}` },
        payload: {},
      });
      expect(sent.statusCode, sent.body).toBe(200);
    }
    const row = await db().execute<{ id: string | number; payment_id: string | number }>(
      sql`select c.id, c.payment_id from payment_conflicts c join payments p on p.id = c.payment_id where p.token = ${token}`,
    );
    return { token, conflictId: Number(row.rows[0]!.id), paymentId: String(row.rows[0]!.payment_id) };
  };

  it('opens the disputes pages to admin and support, the conflicts queue to admin only', async () => {
    const { token, documentId } = await openDispute();
    const pages: [string, number, number, number][] = [
      ['/ops/disputes', 200, 200, 403],
      ['/ops/disputes?status=all', 200, 200, 403],
      [`/ops/disputes/${token}`, 200, 200, 403],
      [`/ops/disputes/${token}/documents/${documentId}`, 200, 200, 403],
      ['/ops/conflicts', 200, 403, 403],
      ['/ops/conflicts?state=all', 200, 403, 403],
    ];
    for (const [path, ...statuses] of pages) {
      const answered = [(await admin.get(path)).statusCode, (await support.get(path)).statusCode, (await finance.get(path)).statusCode];
      expect(answered, path).toEqual(statuses);
    }
    const document = await support.get(`/ops/disputes/${token}/documents/${documentId}`);
    expect(document.headers['content-type']).toBe('image/png');
    expect(document.headers['content-disposition']).toContain('attachment');
  });

  it('lists the disputes waiting for a decision first, with every merchant’s evidence and history on a dispute’s page', async () => {
    const waiting = await openDispute();
    const decided = await openDispute();
    await admin.post(`/ops/disputes/${decided.token}/resolve`, { outcome: 'lost' }, `/ops/disputes/${decided.token}`);
    const queue = (await support.get('/ops/disputes')).body;
    expect(queue).toContain(waiting.token);
    expect(queue).not.toContain(decided.token);
    expect((await support.get('/ops/disputes?status=lost')).body).toContain(decided.token);
    expect((await support.get(`/ops/disputes?status=all&merchantId=${merchant.id}`)).body).toContain(decided.token);
    expect((await support.get(`/ops/disputes?status=all&merchantId=${merchant.id + 1000}`)).body).not.toContain(decided.token);

    const page = (await support.get(`/ops/disputes/${waiting.token}`)).body;
    expect(page).toContain('receipt.png');
    expect(page).toContain(`href="/ops/payments/${waiting.payment.token}"`);
    expect(page).toContain('Status history');
    expect(page).toContain('Put under review');
    expect(page).toContain('name="outcome" value="won"');
  });

  it('moves a dispute to review, then resolves it won with a note, each move audited once under the operator', async () => {
    const { token } = await openDispute();
    const { id } = await disputeRow(token);
    const reviewed = await support.post(`/ops/disputes/${token}/review`, {}, `/ops/disputes/${token}`);
    expect(reviewed.statusCode).toBe(303);
    expect(reviewed.headers.location).toBe(`/ops/disputes/${token}?done=reviewed`);
    expect(await auditOf('dispute.review', 'dispute', id)).toEqual([
      expect.objectContaining({ actor: `operator:${support.operatorId}`, before: { status: 'open' }, after: { status: 'under_review' } }),
    ]);
    const note = 'The courier confirmed the delivery.';
    const resolved = await support.post(`/ops/disputes/${token}/resolve`, { outcome: 'won', note }, `/ops/disputes/${token}`);
    expect(resolved.headers.location).toBe(`/ops/disputes/${token}?done=won`);
    expect(await disputeRow(token)).toMatchObject({ status: 'won', resolution_note: note });
    const [event, ...more] = await auditOf('dispute.resolve', 'dispute', id);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      actor: `operator:${support.operatorId}`,
      before: { status: 'under_review', resolution_note: null },
      after: { status: 'won', resolution_note: note },
    });
  });

  it('resolves an open dispute as won straight away: open → won with its note in the audit log', async () => {
    const { token } = await openDispute();
    const { id } = await disputeRow(token);
    const note = 'Refund was never due.';
    expect((await admin.post(`/ops/disputes/${token}/resolve`, { outcome: 'won', note }, `/ops/disputes/${token}`)).statusCode).toBe(303);
    expect(await auditOf('dispute.resolve', 'dispute', id)).toEqual([
      expect.objectContaining({
        actor: `operator:${admin.operatorId}`,
        before: expect.objectContaining({ status: 'open' }),
        after: expect.objectContaining({ status: 'won', resolution_note: note }),
      }),
    ]);
  });

  it('refuses finance’s forged dispute moves, a missing outcome and a note the flow refuses, changing nothing', async () => {
    const { token } = await openDispute();
    const { id } = await disputeRow(token);
    expect((await finance.post(`/ops/disputes/${token}/review`, {}, '/ops')).statusCode).toBe(403);
    expect((await finance.post(`/ops/disputes/${token}/resolve`, { outcome: 'won' }, '/ops')).statusCode).toBe(403);
    const noOutcome = await support.post(`/ops/disputes/${token}/resolve`, { note: 'kept' }, `/ops/disputes/${token}`);
    expect(noOutcome.statusCode).toBe(400);
    expect(noOutcome.body).toContain('>kept</textarea>');
    const longNote = await support.post(`/ops/disputes/${token}/resolve`, { outcome: 'lost', note: 'x'.repeat(2001) }, `/ops/disputes/${token}`);
    expect(longNote.statusCode).toBe(422);
    expect(await disputeRow(token)).toMatchObject({ status: 'open', resolution_note: null });
    const events = await db().execute(
      sql`select id from audit_events where subject_type = 'dispute' and subject_id = ${String(id)} and action in ('dispute.review', 'dispute.resolve')`,
    );
    expect(events.rows).toEqual([]);
  });

  it('lists a conflict with its payment and lets an admin accept it, audited once under the operator; support may not', async () => {
    const { token, conflictId, paymentId } = await conflictOfDeclined();
    const queue = (await admin.get('/ops/conflicts')).body;
    expect(queue).toContain(`href="/ops/payments/${token}"`);
    expect(queue).toContain(`action="/ops/conflicts/${conflictId}/resolve"`);

    expect((await support.post(`/ops/conflicts/${conflictId}/resolve`, { action: 'accept' }, '/ops')).statusCode).toBe(403);
    expect(await auditOf('conflict.resolve', 'conflict', conflictId)).toEqual([]);

    const accepted = await admin.post(`/ops/conflicts/${conflictId}/resolve`, { action: 'accept' }, '/ops/conflicts');
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/ops/conflicts?done=accepted');
    const [event, ...more] = await auditOf('conflict.resolve', 'conflict', conflictId);
    expect(more).toEqual([]);
    expect(event).toMatchObject({
      actor: `operator:${admin.operatorId}`,
      before: { resolution: null, resolved_by: null },
      after: { resolution: 'accepted', resolved_by: admin.email },
    });
    expect(await auditOf('conflict.resolve', 'payment', paymentId)).toEqual([
      expect.objectContaining({ actor: `operator:${admin.operatorId}`, before: { status: 'declined' }, after: { status: 'approved', cause: 'operator' } }),
    ]);
    const again = await admin.post(`/ops/conflicts/${conflictId}/resolve`, { action: 'dismiss' }, '/ops/conflicts');
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('already accepted');
  });

  it('dismisses a conflict: the payment keeps its status', async () => {
    const { token, conflictId } = await conflictOfDeclined();
    expect((await admin.post(`/ops/conflicts/${conflictId}/resolve`, { action: 'dismiss' }, '/ops/conflicts')).headers.location).toBe(
      '/ops/conflicts?done=dismissed',
    );
    const status = await db().execute<{ status: string }>(sql`select status from payments where token = ${token}`);
    expect(status.rows[0]!.status).toBe('declined');
    expect((await admin.get('/ops/conflicts?state=all')).body).toContain(`dismissed by ${admin.email}`);
  });
});
