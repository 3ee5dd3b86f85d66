import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { FormData, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminClient, type AdminClient } from '../../../src/cli/admin-client.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runDisputeCommand, type DisputeCommandOptions } from '../../../src/cli/dispute-commands.ts';
import { decideTransition, NO_FINAL_CHANGE } from '../../../src/payments/domain/payment-status.ts';
import { findBookViolations as findLedgerViolations } from '../../../src/payments/flows/ledger-check.ts';
import { transitionPayment } from '../../support/bare-transition.ts';
import { payments } from '../../../src/payments/store/schema.ts';
import { testEngines } from '../../support/databases.ts';
import { validPaymentA } from '../../support/harness.ts';
import { startReceiver, type Receiver } from '../../support/receiver.ts';
import { startServerHarness, type ServerHarness } from '../../support/server-harness.ts';
import { storedFiles, tinyPdf, tinyPng, usdWallet } from './disputes-fixtures.ts';

const engines = await testEngines();
const NOTIFICATION_WAIT_MS = 15_000;

describe.each(engines)('disputes over real HTTPS, stored in the data folder, resolved with the CLI on %s', (engine) => {
  let server: ServerHarness;
  let client: AdminClient;
  let receiver: Receiver;
  let merchant: { id: number; sandboxKey: string };

  beforeAll(async () => {
    server = await startServerHarness(engine);
    client = adminClient(server.running.app.payrail.config, server.baseUrl);
    receiver = await startReceiver();
    merchant = await server.createMerchant('CLI dispute merchant');
  });
  afterAll(async () => {
    await client?.close();
    await receiver?.close();
    await server?.close();
  });

  async function approvedPayment(amount: number): Promise<string> {
    const created = await server.call('POST', '/api/v1/payments', {
      key: merchant.sandboxKey,
      body: { ...validPaymentA, amount, callbackUrl: `${receiver.url}/payrail` },
    });
    expect(created.status).toBe(200);
    const token = created.body.token as string;
    const db = server.running.app.payrail.database.db;
    const [row] = await db.select({ id: payments.id }).from(payments).where(eq(payments.token, token));
    await db.transaction(async (tx) => {
      await transitionPayment(tx, row!.id, decideTransition('init', 'approved', NO_FINAL_CHANGE));
    });
    return token;
  }

  // A browser-like client: undici builds the multipart body from a FormData.
  async function openDispute(paymentToken: string, amount: number, files: { name: string; type: string; bytes: Buffer }[]) {
    const form = new FormData();
    form.append('token', paymentToken);
    form.append('description', 'Chargeback: item not as described');
    form.append('amount', String(amount));
    for (const file of files) form.append('document[]', new Blob([file.bytes], { type: file.type }), file.name);
    const response = await request(`${server.baseUrl}/api/v1/disputes`, {
      method: 'POST',
      dispatcher: server.dispatcher,
      headers: { authorization: `Bearer ${merchant.sandboxKey}` },
      body: form,
    });
    return { status: response.statusCode, body: (await response.body.json()) as any };
  }

  const cli = async (action: string, options: Partial<DisputeCommandOptions>) => {
    const lines: string[] = [];
    await runDisputeCommand(client, action, { json: false, ...options }, (line) => lines.push(line));
    return lines;
  };

  it('stores uploaded documents 0600 in <data dir>/dispute-documents (0700) and streams them back over HTTPS', async () => {
    const token = await approvedPayment(2000);
    const png = tinyPng();
    const pdf = tinyPdf();
    const opened = await openDispute(token, 500, [
      { name: 'screenshot.png', type: 'image/png', bytes: png },
      { name: 'letter.pdf', type: 'application/pdf', bytes: pdf },
    ]);
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      success: true,
      result: 0,
      status: 'open',
      dispute: { amount: 500, documents: [{ file_name: 'screenshot.png' }, { file_name: 'letter.pdf' }] },
    });

    const folder = join(server.running.app.payrail.config.dataDir, 'dispute-documents');
    expect(server.running.app.payrail.config.disputeDocumentsDir).toBe(folder);
    expect((await stat(folder)).mode & 0o777).toBe(0o700);
    const files = await storedFiles(folder);
    expect(files.map((file) => file.mode)).toEqual([0o600, 0o600]);
    expect(files.map((file) => file.size).sort()).toEqual([png.length, pdf.length].sort());

    const document = opened.body.dispute.documents[1];
    const download = await request(`${server.baseUrl}/api/v1/disputes/${opened.body.dispute.token}/documents/${document.id}`, {
      dispatcher: server.dispatcher,
      headers: { authorization: `Bearer ${merchant.sandboxKey}` },
    });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(Buffer.from(await download.body.arrayBuffer())).toEqual(pdf);

    const anonymous = await request(`${server.baseUrl}/api/v1/disputes/${opened.body.dispute.token}/documents/${document.id}`, {
      dispatcher: server.dispatcher,
    });
    expect(anonymous.statusCode).toBe(401);
    await anonymous.body.dump();
  });

  it('notifies the merchant of the dispute with type dispute', async () => {
    const token = await approvedPayment(1000);
    const opened = await openDispute(token, 100, []);
    expect(opened.status).toBe(200);
    const disputeToken = opened.body.dispute.token;
    const deadline = Date.now() + NOTIFICATION_WAIT_MS;
    let notification: Record<string, unknown> | undefined;
    while (notification === undefined && Date.now() < deadline) {
      notification = receiver.received.map((received) => JSON.parse(received.body) as Record<string, unknown>).find((body) => body['token'] === disputeToken);
      if (notification === undefined) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(notification).toMatchObject({ token: disputeToken, type: 'dispute', status: 'open', amount: 100, currency: 'USD', paymentToken: token });
  });

  it('lists, reviews and resolves disputes with payrail dispute …', async () => {
    const before = await usdWallet(server.running.app.payrail.database, merchant.id);
    const token = await approvedPayment(1000);
    const opened = await openDispute(token, 300, [{ name: 'proof.png', type: 'image/png', bytes: tinyPng() }]);
    const disputeToken = opened.body.dispute.token as string;

    const listed = await cli('list', { merchant: String(merchant.id), status: 'open' });
    expect(listed).toContainEqual(
      expect.stringMatching(new RegExp(`^${disputeToken}\\topen\\tmerchant #${merchant.id} sandbox\\t300 USD\\tpayment ${token}\\t1 document`)),
    );
    const got = await cli('get', { token: disputeToken });
    expect(got).toContainEqual(expect.stringMatching(/document \d+: proof\.png \(image\/png, \d+ bytes\)/));

    expect(await cli('review', { token: disputeToken })).toEqual([expect.stringContaining(`${disputeToken}\tunder_review\t`)]);
    const resolvedLines = await cli('resolve', { token: disputeToken, outcome: 'lost', note: 'Customer evidence prevails', json: true });
    expect(JSON.parse(resolvedLines[0]!)).toMatchObject({ token: disputeToken, status: 'lost', resolution_note: 'Customer evidence prevails' });

    const after = await usdWallet(server.running.app.payrail.database, merchant.id);
    expect(after.available).toBe(before.available + 1000 - 300);
    expect(after.hold).toBe(before.hold);
    expect(await findLedgerViolations(server.running.app.payrail.database.db)).toEqual([]);

    await expect(cli('resolve', { token: disputeToken, outcome: 'won' })).rejects.toThrow(/HTTP 409: invalid_state/);
    const lostOnes = (await cli('list', { status: 'lost', json: true }))[0]!;
    expect(JSON.parse(lostOnes).map((dispute: { token: string }) => dispute.token)).toContain(disputeToken);
  });

  it.each([
    ['review without --token', 'review', {}, /--token/],
    ['resolve without --outcome', 'resolve', { token: 'a'.repeat(32) }, /--outcome won\|lost/],
    ['resolve with --outcome draw', 'resolve', { token: 'a'.repeat(32), outcome: 'draw' }, /--outcome won\|lost/],
    ['list with --status closed', 'list', { status: 'closed' }, /--status/],
    ['list with --merchant abc', 'list', { merchant: 'abc' }, /--merchant/],
    ['an unknown action', 'reopen', {}, /unknown dispute command/],
  ] as const)('refuses %s with a clear message', async (_case, action, options, message) => {
    const attempt = cli(action, options);
    await expect(attempt).rejects.toThrow(CliError);
    await expect(attempt).rejects.toThrow(message);
  });
});
