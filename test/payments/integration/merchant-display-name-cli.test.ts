import { request } from 'undici';
import { describe, expect, it } from 'vitest';
import { cliAgainstRunningServer } from '../../support/cli-server.ts';
import { CliError } from '../../../src/cli/cli-error.ts';
import { runMerchantCommand, type MerchantCommandOptions } from '../../../src/cli/merchant-commands.ts';

// `payrail merchant create|update --display-name`: what the hosted checkout calls the merchant, through the admin API.
describe('payrail merchant --display-name against a running server', () => {
  const running = cliAgainstRunningServer();

  const run = async (action: string, options: Partial<MerchantCommandOptions>) => {
    const lines: string[] = [];
    await runMerchantCommand(running.client(), action, { json: false, ...options }, (line) => lines.push(line));
    return lines;
  };
  const runJson = async (action: string, options: Partial<MerchantCommandOptions>) => JSON.parse((await run(action, { ...options, json: true }))[0]!);

  it('creates a merchant with a display name and shows it on the checkout page', async () => {
    const lines = await run('create', { name: 'Northwind Traders GmbH', 'display-name': 'Northwind' });
    expect(lines[0]).toMatch(/^Merchant #\d+ "Northwind Traders GmbH" \(shown to customers as "Northwind"\) created/);
    const id = Number(/#(\d+)/.exec(lines[0]!)?.[1]);
    expect(await runJson('get', { id: String(id) })).toMatchObject({ name: 'Northwind Traders GmbH', display_name: 'Northwind' });

    const key = /sandbox key:\s+(\S+)/.exec(lines.join('\n'))?.[1] ?? '';
    const created = await running.server().call('POST', '/api/v1/payments', {
      key,
      body: { product: 'Green tea', amount: 300, currency: 'EUR', callbackUrl: 'https://merchant.example/callback' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const page = await request(created.body.processingUrl as string, { dispatcher: running.server().dispatcher, headers: { accept: 'text/html' } });
    const html = await page.body.text();
    expect(html).toMatch(/<title>[^<]*Northwind<\/title>/);
    expect(html).toContain('<h1 id="page-heading" class="page-heading">Pay Northwind</h1>');
  });

  it('updates the display name, clears it with "", and refuses a bad one naming the field', async () => {
    const { id } = await runJson('create', { name: 'Contoso' });
    expect(await runJson('update', { id: String(id), 'display-name': 'Contoso Coffee' })).toMatchObject({ name: 'Contoso', display_name: 'Contoso Coffee' });
    const described = await run('update', { id: String(id), name: 'Contoso Ltd' });
    expect(described[0]).toContain('Contoso Ltd (shown as "Contoso Coffee")');
    expect(await runJson('update', { id: String(id), 'display-name': '' })).toMatchObject({ name: 'Contoso Ltd', display_name: null });
    await expect(run('update', { id: String(id), 'display-name': 'x'.repeat(101) })).rejects.toThrow(/display_name/);
    await expect(run('update', { id: String(id) })).rejects.toBeInstanceOf(CliError);
  });
});
