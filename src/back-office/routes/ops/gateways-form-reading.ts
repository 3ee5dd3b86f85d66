import type { GatewayRoutingRules, GatewaySettings } from '../../../payments/index.ts';
import { readGatewayAlias } from '../../../payments/index.ts';
import type { ApiError } from '../../../platform/lib/errors.ts';
import { isJsonObject } from '../../../platform/lib/type-guards.ts';
import {
  formValuesOf,
  PROVIDER_KEYS,
  settingsOfForm,
  WHOLE_FORM,
  type GatewayFormBody,
  type GatewayFormField,
  type GatewayFormValues,
} from '../../domain/gateway-form.ts';
import { formText } from '../../pages/machinery.ts';
import { routingFormValuesOfBody, routingOfForm, type RoutingFormValues } from './gateways-routing-form.ts';

type Environment = 'sandbox' | 'production';

export interface GatewayFormInput {
  alias: string;
  environment: Environment;
  settings: GatewaySettings;
  routing: GatewayRoutingRules | null;
}

export interface GatewayFormRetry {
  alias: string;
  environment: Environment | null;
  values: GatewayFormValues;
  routing: RoutingFormValues;
  errors: Record<string, string[]>;
}

// A submitted gateway form: the alias, the environment (a new gateway only), the settings (domain/gateway-form.ts:
// a secret left blank keeps the stored one) and the routing rules; or the form to show again with every problem.
export function readGatewayForm(
  fields: readonly GatewayFormField[],
  body: GatewayFormBody,
  current: GatewaySettings | null,
  environment: Environment | null,
): { ok: true; input: GatewayFormInput } | { ok: false; retry: GatewayFormRetry } {
  const errors: Record<string, string[]> = {};
  const alias = readGatewayAlias(formText(body, 'alias'));
  if ('problem' in alias) errors['alias'] = [alias.problem];
  const chosen = environment ?? environmentOf(formText(body, 'environment'));
  if (chosen === null) errors['environment'] = ['must be sandbox or production'];
  const routingValues = routingFormValuesOfBody(body);
  const routing = routingOfForm(routingValues);
  if (!routing.ok) Object.assign(errors, routing.errors);
  const settings = settingsOfForm(fields, body, current);
  if (!settings.ok) Object.assign(errors, settings.errors);
  if (settings.ok && routing.ok && chosen !== null && 'alias' in alias && Object.keys(errors).length === 0) {
    return { ok: true, input: { alias: alias.alias, environment: chosen, settings: settings.settings, routing: routing.routing } };
  }
  const values = settings.ok ? valuesForRetry(fields, settings.settings, current) : settings.values;
  // The environment is asked of a new gateway only (null: an existing one's never changes).
  const shownEnvironment = environment === null ? (chosen ?? 'production') : null;
  return { ok: false, retry: { alias: formText(body, 'alias'), environment: shownEnvironment, values, routing: routingValues, errors } };
}

// A save the flow refused (alias taken, a routing rule, a setting it checks): its problems where the form shows them.
export function retryOfRefusal(error: ApiError, retry: Omit<GatewayFormRetry, 'errors'>): GatewayFormRetry {
  const errors: Record<string, string[]> = {};
  for (const item of error.items) {
    const field = item.field?.replace(/^settings\./, '') ?? (error.code === 'alias_taken' ? 'alias' : WHOLE_FORM);
    errors[field] = [...(errors[field] ?? []), item.message];
  }
  return { ...retry, errors };
}

function environmentOf(text: string): Environment | null {
  return text === 'sandbox' || text === 'production' ? text : null;
}

// The form as it was sent, settings valid but something else refused: a secret just typed is not shown as set (it
// would be lost on the next save) but left blank, to be typed again; a stored one stays "set".
export function valuesForRetry(fields: readonly GatewayFormField[], settings: GatewaySettings, current: GatewaySettings | null): GatewayFormValues {
  const values = formValuesOf(fields, settings);
  for (const field of fields) {
    const segments = field.name.endsWith(PROVIDER_KEYS) ? field.section.split('.').filter(Boolean) : field.name.split('.');
    if (field.kind === 'secret' && valueAt(settings, segments) !== valueAt(current, segments)) values.values[field.name] = '';
    for (const row of values.rows[field.name] ?? []) {
      if (row.secret && valueAt(settings, [...segments, row.key]) !== valueAt(current, [...segments, row.key])) row.value = '';
    }
  }
  return values;
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let value = root;
  for (const segment of segments) value = isJsonObject(value) ? value[segment] : undefined;
  return value;
}
