import Type from 'typebox';
import { answerPart, CreatedMerchant, MerchantSummary } from './admin-answers.ts';
import type { AdminClient } from './admin-client.ts';
import { CliError } from './cli-error.ts';

export interface MerchantCommandOptions {
  name?: string | undefined;
  'display-name'?: string | undefined; // an empty value on update clears it (the checkout shows the name again)
  id?: string | undefined;
  environment?: string | undefined;
  email?: string | undefined;
  'member-role'?: string | undefined;
  reason?: string | undefined;
  json: boolean;
}

export async function runMerchantCommand(
  client: AdminClient,
  action: string | undefined,
  options: MerchantCommandOptions,
  print: (line: string) => void,
): Promise<void> {
  switch (action) {
    case 'create': {
      if (!options.name) throw new CliError('merchant create needs --name <name>');
      const displayName = options['display-name'];
      const answer = await client.call('POST', '/merchants', { name: options.name, ...(displayName ? { display_name: displayName } : {}) });
      const merchant = answerPart(answer, 'merchant', CreatedMerchant);
      if (options.json) return print(JSON.stringify(merchant));
      const shown = merchant.display_name === null ? '' : ` (shown to customers as "${merchant.display_name}")`;
      print(`Merchant #${merchant.id} "${merchant.name}"${shown} created. Keys are shown once:`);
      print(`  sandbox key:    ${merchant.sandbox_key}`);
      print(`  production key: ${merchant.production_key}`);
      return;
    }
    case 'list': {
      const answer = await client.call('GET', '/merchants?perPage=500');
      const merchants = answerPart(answer, 'merchants', Type.Array(MerchantSummary));
      if (options.json) return print(JSON.stringify(merchants));
      for (const merchant of merchants) print(describe(merchant));
      if (merchants.length === 0) print('no merchants yet: payrail merchant create --name <name>');
      return;
    }
    case 'get': {
      const answer = await client.call('GET', `/merchants/${requireId(options)}`);
      const merchant = answerPart(answer, 'merchant', MerchantSummary);
      return print(options.json ? JSON.stringify(merchant) : describe(merchant));
    }
    case 'update': {
      const id = requireId(options);
      const displayName = options['display-name'];
      if (options.name === undefined && displayName === undefined)
        throw new CliError('merchant update needs --name <name> and/or --display-name <text> ("" clears it)');
      const body = {
        ...(options.name === undefined ? {} : { name: options.name }),
        ...(displayName === undefined ? {} : { display_name: displayName === '' ? null : displayName }),
      };
      const answer = await client.call('PATCH', `/merchants/${id}`, body);
      const merchant = answerPart(answer, 'merchant', MerchantSummary);
      return print(options.json ? JSON.stringify(merchant) : describe(merchant));
    }
    case 'rotate-key': {
      const environment = options.environment;
      if (environment !== 'sandbox' && environment !== 'production') {
        throw new CliError('merchant rotate-key needs --environment sandbox|production');
      }
      const answer = await client.call('POST', `/merchants/${requireId(options)}/keys/${environment}/rotate`);
      if (options.json) return print(JSON.stringify(answer));
      return print(`New ${environment} key of merchant #${String(answer['merchant_id'])} (the old one no longer works): ${String(answer['key'])}`);
    }
    case 'invite': {
      if (!options.email) throw new CliError('merchant invite needs --email <address>');
      const role = options['member-role'] ?? 'owner';
      const answer = await client.call('POST', `/merchants/${requireId(options)}/invitations`, { email: options.email, role });
      if (options.json) return print(JSON.stringify(answer));
      return print(
        `Invitation sent to ${String(answer['email'])} as ${String(answer['role'])}: the link is in the delivery channel (payrail outbox, or e-mail).`,
      );
    }
    case 'reject': {
      if (!options.reason?.trim()) throw new CliError('merchant reject needs --reason <text> (shown to the merchant in its dashboard)');
      const answer = await client.call('POST', `/merchants/${requireId(options)}/reject`, { reason: options.reason });
      const merchant = answerPart(answer, 'merchant', MerchantSummary);
      return print(options.json ? JSON.stringify(merchant) : describe(merchant));
    }
    case 'approve':
    case 'disable':
    case 'enable': {
      const answer = await client.call('POST', `/merchants/${requireId(options)}/${action}`);
      const merchant = answerPart(answer, 'merchant', MerchantSummary);
      return print(options.json ? JSON.stringify(merchant) : describe(merchant));
    }
    default:
      throw new CliError(
        `unknown merchant command "${action ?? ''}": create | list | get | update | rotate-key | disable | enable | approve | reject | invite`,
      );
  }
}

function requireId(options: MerchantCommandOptions): number {
  const id = Number(options.id);
  if (!Number.isSafeInteger(id) || id < 1) throw new CliError('this command needs --id <merchant id>');
  return id;
}

function describe(merchant: MerchantSummary): string {
  const keys = merchant.keys.map((key) => `${key.environment} ${key.prefix}`).join(', ');
  const shown = merchant.display_name === null ? '' : ` (shown as "${merchant.display_name}")`;
  const review =
    merchant.review_status === 'pending_review'
      ? ' (pending review)'
      : merchant.review_status === 'rejected'
        ? ` (rejected: ${merchant.review_note ?? ''})`
        : '';
  return `#${merchant.id}\t${merchant.status}${review}\t${merchant.name}${shown}\t(${keys})\tcreated ${merchant.created_at}`;
}
