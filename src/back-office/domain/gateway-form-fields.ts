// spec 2.10: the operator console's gateway form, field by field, read off the gateway settings schema (payments'
// GatewaySettingsSchema, the one the admin API validates with), so a field the schema gains appears in the form.
//
// Form input names (what @fastify/formbody hands back):
//   a field                      its dotted path:                      gateway_settings.full_link
//   a secret's "remove it" box   <path>.clear = on
//   a list (custom_requisite_fields)  one input, items separated by commas or new lines (or the name repeated)
//   key/value rows               <name>.key[] and <name>.value[], parallel, one pair per row:
//                                gateway_settings.status_checker_time_rates.key[] / ….value[]
//   provider keys of an object   rows named <object path>.* ("*" at the top level): gateway_settings.*.key[]

type GatewayFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'select' | 'secret' | 'url' | 'keyvalue';

// The settings' secrets, by their path in the schema (it marks none itself; a `writeOnly: true` would count too).
// Write-only: the form shows whether one is set, never its value. Provider keys, which the schema cannot name, are
// secret by the adapter kit's one list of secret names, as the admin API's masking decides (maskedSettings).
export const GATEWAY_SECRET_FIELDS: readonly string[] = ['api_key', 'sign_key', 'gateway_settings.rabbit_password', 'assets'];

export const PROVIDER_KEYS = '*'; // the last segment of a provider-keys field's name
export const SECRET_SET_TEXT = '•••• set'; // what a set secret shows; sent back as is, it keeps the secret
export const SECRET_CLEAR_SUFFIX = '.clear';
const KEY_INPUT_SUFFIX = '.key[]';
const VALUE_INPUT_SUFFIX = '.value[]';

export interface KeyValueRowsSpec {
  keyInput: string; // <name>.key[]
  valueInput: string; // <name>.value[]
  // any: a provider's value, kept as text; a value that was not text (a number, a list) is edited as JSON, and a new
  // row whose value starts with { or [ and parses as JSON is taken as JSON.
  valueKind: 'text' | 'integer' | 'number' | 'any';
  secretValues: 'all' | 'by-name'; // all: every value is write-only (assets); by-name: a row whose key is a secret name
  declaredKeys: readonly string[]; // provider keys: the object's own fields, which no row may name
  keyMaxLength: number | null;
}

export interface GatewayFormField {
  name: string; // dotted path in the settings (input name); provider keys: <object path>.*
  section: string; // dotted path of the object holding the field ('' at the top level), to group fields by
  label: string;
  kind: GatewayFieldKind;
  required: boolean; // the schema requires it and every object above it
  description: string | null;
  options: readonly string[] | null; // select: the schema's values
  min: number | null; // number, integer, and integer or number rows: the schema's minimum / maximum
  max: number | null;
  pattern: string | null;
  minLength: number | null; // text, secret, url; a list's items; key/value rows' values
  maxLength: number | null;
  list: boolean; // text holding a list of strings
  maxItems: number | null; // a list's items, or key/value rows
  rows: KeyValueRowsSpec | null; // keyvalue only
}

type JsonSchema = Readonly<Record<string, unknown>>;

const LABELS: Readonly<Record<string, string>> = {
  api_key: 'API key',
  host2host: 'Host-to-Host',
  full_link: 'Adapter URL (full_link)',
  rabbit_url: 'RabbitMQ URL',
  rabbit_user: 'RabbitMQ user',
  rabbit_password: 'RabbitMQ password',
  status_checker_time_rates: 'Status check schedule (attempts → seconds)',
  assets: 'Assets (file name → base64)',
  [PROVIDER_KEYS]: "Provider's own keys",
};

// `schema`: a JSON Schema of an object (TypeBox's schemas are), payments' GatewaySettingsSchema.
export function gatewayFormFields(schema: object): GatewayFormField[] {
  const fields: GatewayFormField[] = [];
  collectFields(schemaOf(schema) ?? {}, [], true, fields);
  return fields;
}

function collectFields(schema: JsonSchema, path: readonly string[], required: boolean, fields: GatewayFormField[]): void {
  const properties = schemaOf(schema['properties']);
  if (properties === null) {
    fields.push(leafField(schema, path, required));
    return;
  }
  const requiredKeys = Array.isArray(schema['required']) ? schema['required'] : [];
  for (const [key, property] of Object.entries(properties)) {
    const propertySchema = schemaOf(property);
    if (propertySchema !== null) collectFields(propertySchema, [...path, key], required && requiredKeys.includes(key), fields);
  }
  // JSON Schema: keys beyond the properties are allowed unless additionalProperties says false.
  const extra = schema['additionalProperties'];
  if (extra === false) return;
  const section = path.join('.');
  const name = section === '' ? PROVIDER_KEYS : `${section}.${PROVIDER_KEYS}`;
  const rows = rowsSpec(name, 'any', 'by-name', Object.keys(properties), schema);
  const description = 'keys spec 2.10 does not define, sent to the adapter as given';
  fields.push({ ...blankField(name, section, 'keyvalue', false, description), maxItems: numberOf(schema['maxProperties']), rows });
}

function leafField(schema: JsonSchema, path: readonly string[], required: boolean): GatewayFormField {
  const name = path.join('.');
  const section = path.slice(0, -1).join('.');
  const description = typeof schema['description'] === 'string' ? schema['description'] : null;
  const secret = schema['writeOnly'] === true || GATEWAY_SECRET_FIELDS.includes(name);
  const bounds = boundsOf(schema);
  const valueSchema = recordValueSchema(schema);
  if (valueSchema !== null) {
    const rows = rowsSpec(name, rowValueKind(valueSchema), secret ? 'all' : 'by-name', [], schema);
    return { ...blankField(name, section, 'keyvalue', required, description), ...boundsOf(valueSchema), maxItems: numberOf(schema['maxProperties']), rows };
  }
  const items = schemaOf(schema['items']);
  if (schema['type'] === 'array' && items !== null) {
    return { ...blankField(name, section, 'text', required, description), ...boundsOf(items), list: true, maxItems: numberOf(schema['maxItems']) };
  }
  const options = optionsOf(schema);
  if (options !== null) return { ...blankField(name, section, 'select', required, description), options };
  return { ...blankField(name, section, scalarKind(schema, name, secret), required, description), ...bounds };
}

function scalarKind(schema: JsonSchema, name: string, secret: boolean): GatewayFieldKind {
  if (secret) return 'secret';
  if (schema['type'] === 'boolean' || schema['type'] === 'integer' || schema['type'] === 'number') return schema['type'];
  const format = schema['format'];
  return format === 'uri' || format === 'url' || /(_url|_link)$/.test(name) ? 'url' : 'text';
}

function blankField(name: string, section: string, kind: GatewayFieldKind, required: boolean, description: string | null): GatewayFormField {
  const last = name.split('.').at(-1) ?? name;
  return {
    name,
    section,
    label: LABELS[last] ?? humanized(last),
    kind,
    required,
    description,
    options: null,
    min: null,
    max: null,
    pattern: null,
    minLength: null,
    maxLength: null,
    list: false,
    maxItems: null,
    rows: null,
  };
}

function rowsSpec(
  name: string,
  valueKind: KeyValueRowsSpec['valueKind'],
  secretValues: KeyValueRowsSpec['secretValues'],
  declaredKeys: readonly string[],
  schema: JsonSchema,
): KeyValueRowsSpec {
  const keyMaxLength = numberOf(schemaOf(schema['propertyNames'])?.['maxLength']);
  return { keyInput: `${name}${KEY_INPUT_SUFFIX}`, valueInput: `${name}${VALUE_INPUT_SUFFIX}`, valueKind, secretValues, declaredKeys, keyMaxLength };
}

// A record (Type.Record: patternProperties, or additionalProperties alone): the schema of its values.
function recordValueSchema(schema: JsonSchema): JsonSchema | null {
  const patterns = schemaOf(schema['patternProperties']);
  const [first] = patterns === null ? [] : Object.values(patterns);
  return schemaOf(first) ?? (schema['type'] === 'object' ? schemaOf(schema['additionalProperties']) : null);
}

function rowValueKind(valueSchema: JsonSchema): KeyValueRowsSpec['valueKind'] {
  const type = valueSchema['type'];
  return type === 'integer' || type === 'number' ? type : type === 'string' ? 'text' : 'any';
}

// The values of an enum, or of a union of constants (TypeBox's union of literals).
function optionsOf(schema: JsonSchema): string[] | null {
  if (Array.isArray(schema['enum'])) return schema['enum'].map(String);
  const members = schema['anyOf'] ?? schema['oneOf'];
  if (!Array.isArray(members) || members.length === 0) return null;
  const constants = members.map((member) => schemaOf(member)?.['const']);
  return constants.every((value) => typeof value === 'string') ? constants : null;
}

function boundsOf(schema: JsonSchema): Pick<GatewayFormField, 'min' | 'max' | 'pattern' | 'minLength' | 'maxLength'> {
  return {
    min: numberOf(schema['minimum']),
    max: numberOf(schema['maximum']),
    pattern: typeof schema['pattern'] === 'string' ? schema['pattern'] : null,
    minLength: numberOf(schema['minLength']),
    maxLength: numberOf(schema['maxLength']),
  };
}

function humanized(key: string): string {
  const words = key.replaceAll('_', ' ');
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

function numberOf(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}

function schemaOf(value: unknown): JsonSchema | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonSchema) : null;
}
