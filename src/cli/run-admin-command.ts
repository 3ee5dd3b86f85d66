import type { Config } from '../platform/config.ts';
import { adminClient } from './admin-client.ts';
import type { CliOptionValues } from './parse-command-line.ts';
import { locateServer } from './server-location.ts';

export interface AdminCommandLine {
  command: string;
  action: string;
  arguments: string[];
  values: CliOptionValues;
}

// The commands that talk to a running server over the admin API; each loads only its own module.
export async function runAdminCommand(config: Config, line: AdminCommandLine, print: (line: string) => void): Promise<void> {
  // The admin key is off with PostgreSQL and no PAYRAIL_ADMIN_KEY: the first operator is then made on the database.
  if (line.command === 'operator' && line.action === 'create' && !config.adminKey && config.databaseUrl) {
    const { createOperatorOnTheDatabase } = await import('./operator-commands.ts');
    return createOperatorOnTheDatabase(config, line.values, print);
  }
  const location = locateServer(config, line.values.url, process.env);
  const client = adminClient(config, location.url, { caFile: location.caFile, source: location.source });
  const { command, action, values } = line;
  try {
    switch (command) {
      case 'merchant': {
        const { COMMISSION_ACTIONS, runCommissionCommand } = await import('./commission-commands.ts');
        if (COMMISSION_ACTIONS.includes(action)) return await runCommissionCommand(client, action, values, print);
        const { runMerchantCommand } = await import('./merchant-commands.ts');
        return await runMerchantCommand(client, action, values, print);
      }
      case 'dispute': {
        const { runDisputeCommand } = await import('./dispute-commands.ts');
        return await runDisputeCommand(client, action, values, print);
      }
      case 'conflicts': {
        const { runConflictCommand } = await import('./conflict-commands.ts');
        return await runConflictCommand(client, [action, ...line.arguments], values, print);
      }
      case 'operator': {
        const { runOperatorCommand } = await import('./operator-commands.ts');
        return await runOperatorCommand(client, action, values, print);
      }
      case 'audit': {
        const { runAuditCommand } = await import('./audit-commands.ts');
        return await runAuditCommand(client, values, print);
      }
      case 'stats': {
        const { runStatsCommand } = await import('./stats-commands.ts');
        return await runStatsCommand(client, action, values, print);
      }
      case 'reconcile': {
        const { runReconcileCommand } = await import('./reconcile-command.ts');
        return await runReconcileCommand(client, values, print);
      }
      case 'gateway': {
        if (action === 'settlement-columns') {
          const { runSettlementColumnsCommand } = await import('./reconcile-command.ts');
          return await runSettlementColumnsCommand(client, values, print);
        }
        const { runGatewayCommand } = await import('./gateway-commands.ts');
        return await runGatewayCommand(client, action, { ...values, settingsFile: values['settings-file'] }, print);
      }
      default: {
        const { runCoreBankingCommand } = await import('./core-banking-commands.ts');
        return await runCoreBankingCommand(client, command, action, { ...values, walletType: values['wallet-type'] }, print);
      }
    }
  } finally {
    await client.close();
  }
}
