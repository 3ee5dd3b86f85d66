import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { addGateway, changeGateway, GatewaySettingsSchema, getGatewayWithSettings, getMerchant, type GatewayWithSettings } from '../../../payments/index.ts';
import { setAuditAction } from '../../../platform/lib/audit-context.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { html } from '../../../platform/lib/html.ts';
import { formValuesOf, gatewayFormFields, type GatewayFormBody } from '../../domain/gateway-form.ts';
import { operatorMay } from '../../domain/operator-roles.ts';
import { requireOperatorAction } from './guard.ts';
import { opsPage } from './layout.ts';
import { gatewayActionsView, gatewayFactsView, gatewaySettingsReadOnlyView } from './gateways-detail-view.ts';
import { readGatewayForm, retryOfRefusal, valuesForRetry, type GatewayFormRetry } from './gateways-form-reading.ts';
import { gatewayFormView } from './gateways-form-view.ts';
import { routingFormValuesOf } from './gateways-routing-form.ts';
import { gatewayStatusPages } from './gateways-status-pages.ts';
import { doneNotice, recordIdOf } from './merchants-params.ts';

type IdRequest = FastifyRequest<{ Params: { id: string } }>;

const GATEWAY_DONE_NOTICES: Readonly<Record<string, string>> = {
  created: 'Gateway added: it is active.',
  saved: 'Gateway saved: new payments use these settings.',
  enabled: 'Enabled: new payments may go through the gateway again.',
  disabled: 'Disabled: new payments no longer go through the gateway.',
};

// A merchant's gateways in the console: the form generated from the settings schema (every field, secrets
// write-only), saved through the admin API's flows (payments/flows/gateway-admin.ts); status and the adapter check in
// gateways-status-pages.ts.
export async function gatewaysPages(app: FastifyInstance): Promise<void> {
  const fields = gatewayFormFields(GatewaySettingsSchema as unknown as Readonly<Record<string, unknown>>);
  const blankForm = { alias: '', environment: 'production' as const, values: formValuesOf(fields, null), routing: routingFormValuesOf(null), errors: {} };

  const showNewForm = async (request: IdRequest, reply: FastifyReply, form: GatewayFormRetry, status = 200) => {
    const merchant = await getMerchant(app.payrail.database.db, recordIdOf(request.params.id));
    const body = gatewayFormView(request, { ...form, action: `/ops/merchants/${merchant.id}/gateways`, submitLabel: 'Add the gateway', fields });
    return opsPage(request, reply, { title: `New gateway of merchant #${merchant.id}: ${merchant.name}`, area: 'merchants', body, status });
  };

  app.get<{ Params: { id: string } }>('/merchants/:id/gateways/new', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    return showNewForm(request, reply, blankForm);
  });

  app.post<{ Params: { id: string } }>('/merchants/:id/gateways', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const merchantId = recordIdOf(request.params.id);
    const reading = readGatewayForm(fields, request.body as GatewayFormBody, null, null);
    if (!reading.ok) return showNewForm(request, reply, reading.retry, 400);
    setAuditAction('gateway.create');
    try {
      const gateway = await addGateway(app.payrail, merchantId, reading.input);
      return reply.redirect(`/ops/gateways/${gateway.id}?done=created`, 303);
    } catch (error) {
      if (!(error instanceof ApiError) || (error.statusCode !== 409 && error.statusCode !== 422)) throw error;
      const { alias, environment } = reading.input;
      const retry = retryOfRefusal(error, {
        alias,
        environment,
        values: valuesForRetry(fields, reading.input.settings, null),
        routing: routingFormValuesOf(reading.input.routing),
      });
      return showNewForm(request, reply, retry, 400);
    }
  });

  const showGateway = async (request: IdRequest, reply: FastifyReply, found: GatewayWithSettings, form: GatewayFormRetry | null, status = 200) => {
    const operator = requireOperatorAction(request, 'merchants.read');
    const { gateway, settings } = found;
    const mayWrite = operatorMay(operator.role, 'gateways.write');
    const shown = form ?? {
      alias: gateway.alias,
      environment: null,
      values: formValuesOf(fields, settings),
      routing: routingFormValuesOf(gateway.routing ?? null),
      errors: {},
    };
    const editor = mayWrite
      ? html`${gatewayActionsView(request, gateway)}<h2>Settings</h2>${gatewayFormView(request, { ...shown, action: `/ops/gateways/${gateway.id}`, submitLabel: 'Save the gateway', fields })}`
      : gatewaySettingsReadOnlyView(fields, shown.values);
    const body = html`${doneNotice(request.query, GATEWAY_DONE_NOTICES)}${gatewayFactsView(gateway)}${editor}`;
    return opsPage(request, reply, {
      title: `Gateway ${gateway.alias} (${gateway.environment}) of merchant #${gateway.merchantId}`,
      area: 'merchants',
      body,
      status,
    });
  };

  app.get<{ Params: { id: string } }>('/gateways/:id', async (request, reply) => {
    requireOperatorAction(request, 'merchants.read');
    return showGateway(request, reply, await getGatewayWithSettings(app.payrail, recordIdOf(request.params.id)), null);
  });

  app.post<{ Params: { id: string } }>('/gateways/:id', async (request, reply) => {
    requireOperatorAction(request, 'gateways.write');
    const found = await getGatewayWithSettings(app.payrail, recordIdOf(request.params.id));
    const { gateway, settings } = found;
    const reading = readGatewayForm(fields, request.body as GatewayFormBody, settings, gateway.environment);
    if (!reading.ok) return showGateway(request, reply, found, reading.retry, 400);
    setAuditAction('gateway.update');
    try {
      await changeGateway(app.payrail, gateway.merchantId, gateway.id, {
        alias: reading.input.alias,
        settings: reading.input.settings,
        routing: reading.input.routing,
      });
    } catch (error) {
      if (!(error instanceof ApiError) || (error.statusCode !== 409 && error.statusCode !== 422)) throw error;
      const values = valuesForRetry(fields, reading.input.settings, settings);
      const retry = retryOfRefusal(error, { alias: reading.input.alias, environment: null, values, routing: routingFormValuesOf(reading.input.routing) });
      return showGateway(request, reply, found, retry, 400);
    }
    return reply.redirect(`/ops/gateways/${gateway.id}?done=saved`, 303);
  });

  await app.register(gatewayStatusPages);
}
