import type { FastifyRequest } from 'fastify';
import { GATEWAY_ALIAS_CHARS_MAX, GATEWAY_ALIAS_RULE } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { WHOLE_FORM, type GatewayFormField, type GatewayFormValues } from '../../domain/gateway-form.ts';
import { csrfField } from '../../pages/document.ts';
import { fieldErrorAttributes, fieldErrors, gatewayFieldInput, inputIdOf } from './gateways-field-inputs.ts';
import { ROUTING_INPUTS, routingInputName, type RoutingFormValues } from './gateways-routing-form.ts';

export interface GatewayFormPage {
  action: string; // where the form posts
  submitLabel: string;
  alias: string;
  environment: 'sandbox' | 'production' | null; // null: an existing gateway (its environment never changes)
  fields: readonly GatewayFormField[];
  values: GatewayFormValues;
  routing: RoutingFormValues;
  errors: Readonly<Record<string, readonly string[]>>; // input name → messages; WHOLE_FORM: the form's own
}

// The gateway form: alias, environment, every field of the settings schema grouped by the object holding it (the
// methods folded away), and the routing rules. Secrets are write-only (gateways-field-inputs.ts).
export function gatewayFormView(request: FastifyRequest, page: GatewayFormPage): SafeHtml {
  const sections = new Map<string, GatewayFormField[]>();
  for (const field of page.fields) sections.set(field.section, [...(sections.get(field.section) ?? []), field]);
  return html`${errorSummary(page.errors)}
<form method="post" action="${page.action}" class="stack gateway-form">
  ${csrfField(request)}
  ${identity(page)}
  ${[...sections].map(([section, fields]) => sectionView(section, fields, page))}
  ${routingView(page)}
  <button type="submit">${page.submitLabel}</button>
</form>`;
}

function identity(page: GatewayFormPage): SafeHtml {
  const environment =
    page.environment === null
      ? ''
      : html`<label for="gw-environment">Environment</label>
  <select id="gw-environment" name="environment">${(['production', 'sandbox'] as const).map(
    (choice) => html`<option value="${choice}"${choice === page.environment ? html` selected` : ''}>${choice}</option>`,
  )}</select>`;
  return html`<fieldset><legend>Gateway</legend>
  <label for="gw-alias">Alias</label>
  <input id="gw-alias" name="alias" required maxlength="${GATEWAY_ALIAS_CHARS_MAX}" value="${page.alias}" autocomplete="off"${fieldErrorAttributes(page.errors, 'alias')}>
  <small>${GATEWAY_ALIAS_RULE}</small>
  ${fieldErrors(page.errors, 'alias')}
  ${environment}
</fieldset>`;
}

function sectionView(section: string, fields: readonly GatewayFormField[], page: GatewayFormPage): SafeHtml {
  const inputs = fields.map((field) => gatewayFieldInput(field, page.values, page.errors[field.name] ?? []));
  if (!section.startsWith('gateway_settings.methods.')) return html`<fieldset><legend>${section === '' ? 'Settings' : section}</legend>${inputs}</fieldset>`;
  const open = fields.some(
    (field) => (page.errors[field.name]?.length ?? 0) > 0 || (page.values.values[field.name] ?? '') !== '' || (page.values.rows[field.name]?.length ?? 0) > 0,
  );
  return html`<details${open ? html` open` : ''}><summary>${section}</summary><fieldset><legend>${section}</legend>${inputs}</fieldset></details>`;
}

function routingView(page: GatewayFormPage): SafeHtml {
  const input = (rule: (typeof ROUTING_INPUTS)[number]) => {
    const name = routingInputName(rule);
    return html`<label for="${inputIdOf(name)}">${rule.label}</label>
  <input id="${inputIdOf(name)}" name="${name}" value="${page.routing[rule.rule] ?? ''}"${fieldErrorAttributes(page.errors, name)}>
  <small>${rule.hint}</small>
  ${fieldErrors(page.errors, name)}`;
  };
  return html`<fieldset><legend>Routing rules (used when enable_routing is on; all blank: none)</legend>${ROUTING_INPUTS.map(input)}</fieldset>`;
}

function errorSummary(errors: Readonly<Record<string, readonly string[]>>): SafeHtml | '' {
  const entries = Object.entries(errors).filter(([, messages]) => messages.length > 0);
  if (entries.length === 0) return '';
  return html`<div class="error" role="alert"><p>The gateway was not saved: correct what is marked.</p><ul>${entries.map(
    ([name, messages]) => html`<li>${name === WHOLE_FORM ? '' : html`${name}: `}${messages.join('; ')}</li>`,
  )}</ul></div>`;
}
