import { isSecretName, keyNameOf } from '@payrail/adapter-kit';
import { readGatewaySettings, type GatewaySettings, type GatewaySettingsProblem } from '../../payments/index.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';
import { PROVIDER_KEYS, SECRET_CLEAR_SUFFIX, SECRET_SET_TEXT, type GatewayFormField, type KeyValueRowsSpec } from './gateway-form-fields.ts';

// spec 2.10: the operator console's gateway form. What it shows of a gateway's settings (never a secret), and the
// settings a submitted form stands for, checked by the admin API's own check (payments' readGatewaySettings: the
// schema, then the schedule, transport, provider-key and asset rules), so the form stores nothing the API would
// refuse. Input names: gateway-form-fields.ts.

export {
  GATEWAY_SECRET_FIELDS,
  gatewayFormFields,
  PROVIDER_KEYS,
  SECRET_CLEAR_SUFFIX,
  SECRET_SET_TEXT,
  type GatewayFormField,
} from './gateway-form-fields.ts';

export interface KeyValueRow {
  key: string;
  value: string; // a secret: SECRET_SET_TEXT when set, '' when it must be typed
  secret: boolean;
}

export interface GatewayFormValues {
  values: Record<string, string>; // every field but keyvalue: its text; a boolean 'true' | 'false' | '' (not set)
  rows: Record<string, KeyValueRow[]>; // keyvalue fields
}

export type GatewayFormBody = Readonly<Record<string, unknown>>; // @fastify/formbody: a string, or strings for a repeated name

export type GatewayFormOutcome =
  | { ok: true; settings: GatewaySettings }
  // errors: form field name → messages ('' for the form as a whole); values: the form to show again, secrets that
  // were typed left blank (they must be typed again)
  | { ok: false; errors: Record<string, string[]>; values: GatewayFormValues };

type JsonObject = Record<string, unknown>;

export const WHOLE_FORM = '';
const TRUE_TEXTS = new Set(['true', 'on', '1']);
const FALSE_TEXTS = new Set(['false', 'off', '0']);
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]{0,15})$/;
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,16})?$/;

export function formValuesOf(fields: readonly GatewayFormField[], currentSettings: GatewaySettings | null): GatewayFormValues {
  return shownValues(fields, currentSettings, currentSettings);
}

// `shown` gives every value but the secrets; whether a secret is set is read from `secretsOf` (the stored settings).
function shownValues(fields: readonly GatewayFormField[], shown: unknown, secretsOf: unknown): GatewayFormValues {
  const form: GatewayFormValues = { values: {}, rows: {} };
  for (const field of fields) {
    const spec = field.rows;
    if (spec !== null) {
      const stored = rowsObjectOf(field, secretsOf);
      form.rows[field.name] = rowEntries(field, shown).map(([key, value]): KeyValueRow => {
        if (!isSecretRow(spec, key)) return { key, value: textOf(value), secret: false };
        return { key, value: stored?.[key] === undefined ? '' : SECRET_SET_TEXT, secret: true };
      });
    } else if (field.kind === 'secret') {
      form.values[field.name] = valueAt(secretsOf, segmentsOf(field)) === undefined ? '' : SECRET_SET_TEXT;
    } else {
      const value = valueAt(shown, segmentsOf(field));
      form.values[field.name] = field.list && Array.isArray(value) ? value.map(textOf).join(', ') : textOf(value);
    }
  }
  return form;
}

export function settingsOfForm(fields: readonly GatewayFormField[], formBody: GatewayFormBody, currentSettings: GatewaySettings | null): GatewayFormOutcome {
  const errors: Record<string, string[]> = {};
  const complain = (field: string, message: string) => {
    errors[field] = [...(errors[field] ?? []), message];
  };
  const settings: JsonObject = {};
  for (const field of fields) {
    if (field.rows !== null) {
      const rows = rowsOfBody(field.rows, formBody, rowsObjectOf(field, currentSettings), (message) => complain(field.name, message));
      if (Object.keys(rows).length > 0) Object.assign(objectAt(settings, segmentsOf(field)), rows);
    } else {
      const value = scalarOfBody(field, formBody, currentSettings);
      const segments = segmentsOf(field);
      if (value !== undefined) objectAt(settings, segments.slice(0, -1))[segments.at(-1) ?? field.name] = value;
    }
    if (field.required) objectAt(settings, sectionOf(field));
  }
  const reading = readGatewaySettings(settings);
  if (!reading.ok) for (const problem of reading.problems) complain(...formErrorOf(fields, problem));
  if (reading.ok && Object.keys(errors).length === 0) return { ok: true, settings: reading.settings };
  return { ok: false, errors, values: shownValues(fields, settings, currentSettings) };
}

function scalarOfBody(field: GatewayFormField, body: GatewayFormBody, current: unknown): unknown {
  const text = textsOf(body, field.name).at(-1); // a hidden "false" before a checkbox: the last one counts
  if (field.kind === 'secret') {
    if (TRUE_TEXTS.has(textsOf(body, `${field.name}${SECRET_CLEAR_SUFFIX}`).at(-1) ?? '')) return undefined;
    return text === undefined || text === '' || text === SECRET_SET_TEXT ? valueAt(current, segmentsOf(field)) : text;
  }
  if (field.list) {
    const items = textsOf(body, field.name).flatMap((line) => line.split(/[,\n]/).map((item) => item.trim()));
    const given = items.filter((item) => item !== '');
    return given.length === 0 ? undefined : given;
  }
  const trimmed = text?.trim() ?? '';
  if (trimmed === '') return undefined;
  if (field.kind === 'boolean') return TRUE_TEXTS.has(trimmed) ? true : FALSE_TEXTS.has(trimmed) ? false : trimmed;
  if (field.kind === 'integer' || field.kind === 'number') return numberOfText(trimmed, field.kind);
  return trimmed;
}

// A text that is no plain number stays text, for the schema to refuse as the API would.
function numberOfText(text: string, kind: 'integer' | 'number'): number | string {
  return (kind === 'integer' ? INTEGER_TEXT : NUMBER_TEXT).test(text) ? Number(text) : text;
}

function rowsOfBody(spec: KeyValueRowsSpec, body: GatewayFormBody, current: JsonObject | null, complain: (message: string) => void): JsonObject {
  const keys = textsOf(body, spec.keyInput);
  const values = textsOf(body, spec.valueInput);
  const rows: JsonObject = {};
  for (const [index, keyText] of keys.entries()) {
    const key = keyText.trim();
    const text = values[index] ?? '';
    if (key === '' && text.trim() === '') continue;
    if (key === '') complain(`row ${index + 1}: a value needs a key`);
    else if (Object.hasOwn(rows, key)) complain(`"${key}" is given twice`);
    else if (spec.declaredKeys.includes(key)) complain(`"${key}" is a field of its own, not a provider key`);
    else if (key === '__proto__') complain('"__proto__" is a key a JSON body may not hold');
    else {
      const value = rowValue(spec, key, text, current?.[key], (message) => complain(`"${key}": ${message}`));
      if (value !== undefined) rows[key] = value;
    }
  }
  return rows;
}

function rowValue(spec: KeyValueRowsSpec, key: string, text: string, current: unknown, complain: (message: string) => void): unknown {
  if (isSecretRow(spec, key)) {
    if (text !== '' && text !== SECRET_SET_TEXT) return text;
    if (current === undefined) complain('needs a value');
    return current;
  }
  if (spec.valueKind === 'integer' || spec.valueKind === 'number') return numberOfText(text.trim(), spec.valueKind);
  if (spec.valueKind === 'text') return text;
  // A provider's value: text stays text; one that was not text is edited as JSON; a new one may be JSON.
  const wasJson = current !== undefined && typeof current !== 'string';
  if (!wasJson && (current !== undefined || !/^\s*[[{]/.test(text))) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (wasJson) complain('must be JSON, as its value is not text');
    return text;
  }
}

function isSecretRow(spec: KeyValueRowsSpec, key: string): boolean {
  return spec.secretValues === 'all' || isSecretName(keyNameOf(key));
}

// The API's field (settings.gateway_settings.status_checker_time_rates.1-3) as the form field it belongs to, the
// rest of its path before the message ("1-3": must be integer); what belongs to no field, to the whole form.
function formErrorOf(fields: readonly GatewayFormField[], problem: GatewaySettingsProblem): [string, string] {
  const path = problem.field === 'settings' ? '' : problem.field.replace(/^settings\./, '');
  const restAfter = (prefix: string): string | null => {
    if (prefix === '' || path === prefix) return path.slice(prefix.length);
    return path.startsWith(`${prefix}.`) ? path.slice(prefix.length + 1) : null;
  };
  const longestFirst = (left: GatewayFormField, right: GatewayFormField) => right.name.length - left.name.length;
  // A field of its own, else the provider keys of the deepest object holding the path (not through a named field).
  const own = fields.filter((field) => !isProviderKeys(field) && restAfter(field.name) !== null).sort(longestFirst);
  const providers = fields.filter((field) => {
    const rest = isProviderKeys(field) ? restAfter(field.section) : null;
    return rest !== null && !(field.rows?.declaredKeys ?? []).includes(rest.split('.')[0] ?? '');
  });
  const match = own[0] ?? providers.sort(longestFirst)[0];
  if (match === undefined) return [WHOLE_FORM, `${path}: ${problem.message}`];
  const rest = restAfter(isProviderKeys(match) ? match.section : match.name) ?? '';
  return [match.name, rest === '' ? problem.message : `"${rest}": ${problem.message}`];
}

function isProviderKeys(field: GatewayFormField): boolean {
  return field.name === PROVIDER_KEYS || field.name.endsWith(`.${PROVIDER_KEYS}`);
}

// The key/value entries a field shows: a record's entries, or the keys of an object its schema does not name.
function rowEntries(field: GatewayFormField, settings: unknown): [string, unknown][] {
  const declared = field.rows?.declaredKeys ?? [];
  return Object.entries(rowsObjectOf(field, settings) ?? {}).filter(([key]) => !declared.includes(key));
}

function rowsObjectOf(field: GatewayFormField, settings: unknown): JsonObject | null {
  const value = valueAt(settings, segmentsOf(field));
  return isJsonObject(value) ? value : null;
}

// The path a field's value sits at: provider keys are the keys of their section's object.
function segmentsOf(field: GatewayFormField): string[] {
  return isProviderKeys(field) ? sectionOf(field) : field.name.split('.');
}

function sectionOf(field: GatewayFormField): string[] {
  return field.section === '' ? [] : field.section.split('.');
}

function valueAt(root: unknown, segments: readonly string[]): unknown {
  let value = root;
  for (const segment of segments) value = isJsonObject(value) ? value[segment] : undefined;
  return value;
}

// The object at the path, made (with those above it) where there is none.
function objectAt(root: JsonObject, segments: readonly string[]): JsonObject {
  let object = root;
  for (const segment of segments) {
    const inner = object[segment];
    if (isJsonObject(inner)) object = inner;
    else {
      const made: JsonObject = {};
      object[segment] = made;
      object = made;
    }
  }
  return object;
}

function textsOf(body: GatewayFormBody, name: string): string[] {
  const value = body[name];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

function textOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}
