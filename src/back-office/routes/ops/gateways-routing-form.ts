import { readGatewayRouting, ROUTING_CARD_BRAND_NAMES, ROUTING_REQUISITE_TYPE_NAMES, type GatewayRoutingRules } from '../../../payments/index.ts';
import { formText } from '../../pages/machinery.ts';

// The routing rules part of the gateway form (the admin API's `routing`): each rule one input named routing.<rule>;
// every input blank means no rules at all. The rules are checked by the API's schema (readGatewayRouting).

export interface RoutingFormInput {
  rule: keyof GatewayRoutingRules;
  label: string;
  list: boolean; // items separated by commas
  hint: string;
}

export const ROUTING_INPUTS: readonly RoutingFormInput[] = [
  { rule: 'currencies', label: 'Currencies', list: true, hint: 'ISO 4217 codes separated by commas (EUR, GBP); blank: any' },
  { rule: 'amount_min', label: 'Smallest amount', list: false, hint: 'minor units, inclusive; blank: no minimum' },
  { rule: 'amount_max', label: 'Largest amount', list: false, hint: 'minor units, inclusive; blank: no maximum' },
  { rule: 'card_brands', label: 'Card brands', list: true, hint: `separated by commas, of ${ROUTING_CARD_BRAND_NAMES.join(', ')}; blank: any` },
  { rule: 'requisite_types', label: 'Requisite types', list: true, hint: `separated by commas, of ${ROUTING_REQUISITE_TYPE_NAMES.join(', ')}; blank: any` },
  { rule: 'weight', label: 'Weight', list: false, hint: 'share within its priority tier; blank: the default' },
  { rule: 'priority', label: 'Priority', list: false, hint: 'tier, 1 first; blank: the default' },
];

export type RoutingFormValues = Record<string, string>; // rule → text

export type RoutingFormOutcome = { ok: true; routing: GatewayRoutingRules | null } | { ok: false; errors: Record<string, string[]> };

export function routingInputName(input: RoutingFormInput): string {
  return `routing.${input.rule}`;
}

export function routingFormValuesOf(routing: GatewayRoutingRules | null): RoutingFormValues {
  return Object.fromEntries(
    ROUTING_INPUTS.map((input) => {
      const value = routing?.[input.rule];
      return [input.rule, value === undefined ? '' : Array.isArray(value) ? value.join(', ') : String(value)];
    }),
  );
}

export function routingFormValuesOfBody(body: unknown): RoutingFormValues {
  return Object.fromEntries(ROUTING_INPUTS.map((input) => [input.rule, formText(body, routingInputName(input)).trim()]));
}

export function routingOfForm(values: RoutingFormValues): RoutingFormOutcome {
  const candidate: Record<string, unknown> = {};
  for (const input of ROUTING_INPUTS) {
    const text = values[input.rule] ?? '';
    if (text === '') continue;
    if (input.list) candidate[input.rule] = text.split(',').map((item) => (input.rule === 'currencies' ? item.trim().toUpperCase() : item.trim()));
    else candidate[input.rule] = /^-?[0-9]{1,16}$/.test(text) ? Number(text) : text; // not a number: the schema says so
  }
  if (Object.keys(candidate).length === 0) return { ok: true, routing: null };
  const reading = readGatewayRouting(candidate);
  if (reading.ok) return { ok: true, routing: reading.routing };
  return { ok: false, errors: Object.fromEntries(reading.problems.map((problem) => [problem.field, [problem.message]])) };
}
