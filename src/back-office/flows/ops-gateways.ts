import { checkGatewayAdapter, type GatewayCheckReport } from '../../payments/index.ts';
import { recordAuditEvent } from './audit-log.ts';

type GatewayCheckDeps = Parameters<typeof checkGatewayAdapter>[0];

// The console's "Check adapter": the conformance run against the gateway's adapter, recorded once in the audit log
// with its tally (it changes no audited row, so no trigger records it).
export async function checkGatewayAdapterRecorded(deps: GatewayCheckDeps, gatewayId: number): Promise<GatewayCheckReport> {
  const report = await checkGatewayAdapter(deps, gatewayId);
  const count = (verdict: string) => report.checks.filter((check) => check.verdict === verdict).length;
  await recordAuditEvent(deps.database.db, {
    action: 'gateway.check_adapter',
    subjectType: 'gateway',
    subjectId: String(gatewayId),
    after: { passed: count('pass'), failed: count('fail'), unsupported: count('unsupported') },
  });
  return report;
}
