import type { FastifyInstance } from 'fastify';
import { getGatewayWithSettings, setGatewayStatus } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { html } from '../../../platform/lib/html.ts';
import { checkGatewayAdapterRecorded } from '../../flows/ops-gateways.ts';
import { csrfField } from '../../pages/document.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { gatewayCheckView } from './gateways-detail-view.ts';
import { recordIdOf } from './merchants-params.ts';

// A gateway's status (disable after a confirmation, enable: the admin API's setGatewayStatus) and "Check adapter"
// (the conformance suite against its adapter, its report on the answer page, one audit event).
export async function gatewayStatusPages(app: FastifyInstance): Promise<void> {
  const gatewayOf = async (text: string) => (await getGatewayWithSettings(app.payrail, recordIdOf(text))).gateway;

  app.post<{ Params: { id: string } }>('/gateways/:id/enable', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const gateway = await gatewayOf(request.params.id);
    setAuditAction('gateway.enable');
    await setGatewayStatus(app.payrail, gateway.merchantId, gateway.id, 'active');
    return reply.redirect(`/ops/gateways/${gateway.id}?done=enabled`, 303);
  });

  app.get<{ Params: { id: string } }>('/gateways/:id/disable', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const gateway = await gatewayOf(request.params.id);
    const body = html`<p class="error" role="note">New payments no longer go through this gateway; payments already made through it go on. It can be enabled again.</p>
<form method="post" action="/ops/gateways/${gateway.id}/disable" class="inline">
  ${csrfField(request)}
  <button type="submit" class="danger">Disable the gateway</button>
  <a href="/ops/gateways/${gateway.id}">Cancel</a>
</form>`;
    return opsPage(request, reply, { title: `Disable gateway ${gateway.alias} (${gateway.environment})`, area: 'merchants', body });
  });

  app.post<{ Params: { id: string } }>('/gateways/:id/disable', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const gateway = await gatewayOf(request.params.id);
    setAuditAction('gateway.disable');
    await setGatewayStatus(app.payrail, gateway.merchantId, gateway.id, 'disabled');
    return reply.redirect(`/ops/gateways/${gateway.id}?done=disabled`, 303);
  });

  app.post<{ Params: { id: string } }>('/gateways/:id/check', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const report = await checkGatewayAdapterRecorded(app.payrail, recordIdOf(request.params.id));
    return opsPage(request, reply, { title: `Adapter check of gateway ${report.alias}`, area: 'merchants', body: gatewayCheckView(report) });
  });
}
