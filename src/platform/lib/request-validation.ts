import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { ApiError } from './errors.ts';

// Every integer a request may carry is at most this (and at least its negative) unless its schema says less:
// ids are PostgreSQL bigints, amounts minor units, and a larger JSON number has already lost its digits.
export const REQUEST_INTEGER_MAX = Number.MAX_SAFE_INTEGER;

// The text forms a query string or path segment may give a number or a boolean: plain decimal digits, nothing
// else (no exponent, no spaces, no hex, no "Infinity"), so "1e309" or " 100" is refused, never guessed at.
const INTEGER_TEXT = /^-?(?:0|[1-9][0-9]{0,15})$/;
const NUMBER_TEXT = /^-?(?:0|[1-9][0-9]{0,15})(?:\.[0-9]{1,16})?$/;
const BOOLEAN_TEXT: Readonly<Record<string, boolean>> = { true: true, false: false };
const NUL = '\u0000';
export const NUL_MESSAGE = 'must not contain the NUL character (U+0000)';
const NUL_DEPTH_MAX = 128; // JSON bodies nest at most 64 levels (json-body-parser.ts)

type JsonSchema = Record<string, unknown>;
type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

// One validator compiler for every route. Nothing is coerced inside Ajv: a JSON body is taken exactly as typed
// (a refund's {"amount": true} or {"amount": "1e2"} is refused, not read as 1 or 100), while the text of a query
// string, path segment or header becomes a number or boolean only when it is written plainly (textCoercion).
// Infinity and NaN are never numbers (strictNumbers) and every integer has a maximum (withIntegerCeiling).
// A NUL, which PostgreSQL refuses in text and jsonb, is refused before any validator runs (a route's own validator
// too) in every string of the parsed body, query string and path: 422 invalid_field with the field. The multipart
// forms, read after this hook, check their fields with nulPath themselves.
export function registerRequestValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => requestValidatorOf(schema, httpPart));
  app.addHook('preValidation', (request, _reply, done) => {
    const parts = [
      ['params', request.params],
      ['query', request.query],
      ['body', request.body],
    ] as const;
    for (const [part, value] of parts) {
      const at = nulPath(value, '', 0);
      if (at !== null) {
        done(nulError(at === '' ? part : fieldOf(at)));
        return;
      }
    }
    done();
  });
}

// The error a NUL in a field is answered with.
function nulError(field: string): ApiError {
  return new ApiError('invalid_field', 422, `${field} ${NUL_MESSAGE}`, [{ code: 'invalid_field', field, message: NUL_MESSAGE }]);
}

// A JSON pointer as the error envelope names fields: /customer/email → customer.email.
function fieldOf(pointer: string): string {
  return pointer.split('/').filter(Boolean).join('.');
}

// Route schemas are module constants: each is compiled once per process and its validator shared by every app the
// process builds (a test worker builds hundreds; compiling was a quarter of the suite's CPU). A validator is a pure
// function of its schema and part; Fastify reads its `errors` synchronously, right after the call.
const validatorsBySchema = new WeakMap<object, Map<string, Validator>>();
let sharedAjv: Ajv | null = null;

function requestValidatorOf(schema: FastifySchema, httpPart: string | undefined): Validator {
  const part = httpPart === 'body' ? 'body' : 'text';
  let validators = validatorsBySchema.get(schema);
  if (validators === undefined) {
    validators = new Map();
    validatorsBySchema.set(schema, validators);
  }
  let validator = validators.get(part);
  if (validator === undefined) {
    validator = compileRequestValidator(schema, httpPart);
    validators.set(part, validator);
  }
  return validator;
}

function requestAjv(): Ajv {
  if (sharedAjv === null) {
    sharedAjv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, coerceTypes: false, strictNumbers: true, addUsedSchema: false });
    addFormats.default(sharedAjv);
  }
  return sharedAjv;
}

function compileRequestValidator(schema: FastifySchema, httpPart: string | undefined): Validator {
  const ceiled = withIntegerCeiling(schema);
  const ajv = requestAjv();
  const validate = ajv.compile(ceiled);
  ajv.removeSchema(ceiled); // the validator is kept here, keyed by the route's schema; Ajv need not keep the copy
  const fromText = httpPart === 'body' ? null : textCoercion(ceiled);
  const validator: Validator = (data: unknown) => {
    fromText?.(data);
    const valid = validate(data);
    validator.errors = validate.errors ?? null;
    return valid;
  };
  return validator;
}

// The JSON pointer of the first string value holding a NUL, or of the object whose property name holds one (a
// name is no field a merchant can be told to fix by name), or null.
export function nulPath(value: unknown, path: string, depth: number): string | null {
  if (typeof value === 'string') return value.includes(NUL) ? path : null;
  if (value === null || typeof value !== 'object' || depth > NUL_DEPTH_MAX) return null;
  const entries = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
  for (const [key, item] of entries) {
    if (key.includes(NUL)) return path;
    const found = nulPath(item, `${path}/${key}`, depth + 1);
    if (found !== null) return found;
  }
  return null;
}

// A copy of the schema in which every integer without a maximum (minimum) gets ±REQUEST_INTEGER_MAX: the net under
// schemas that forgot one. A decimal number is only kept finite (strictNumbers); its bounds are its field's own
// rule (a core banking amount over the wallet bound is 422 invalid_amount). TypeBox's own keys are left as they are.
function withIntegerCeiling(schema: object): JsonSchema {
  const copy: JsonSchema = {};
  for (const [key, value] of Object.entries(schema)) copy[key] = ceiledValue(key, value);
  if (isInteger(copy['type'])) {
    if (copy['maximum'] === undefined && copy['exclusiveMaximum'] === undefined) copy['maximum'] = REQUEST_INTEGER_MAX;
    if (copy['minimum'] === undefined && copy['exclusiveMinimum'] === undefined) copy['minimum'] = -REQUEST_INTEGER_MAX;
  }
  return copy;
}

function ceiledValue(key: string, value: unknown): unknown {
  if (key === 'default' || key === 'examples' || key === 'example' || key === 'const' || key === 'enum') return value;
  if (Array.isArray(value)) return value.map((item) => (isSchemaObject(item) ? withIntegerCeiling(item) : item));
  return isSchemaObject(value) ? withIntegerCeiling(value) : value;
}

function isSchemaObject(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isInteger(type: unknown): boolean {
  return Array.isArray(type) ? type.includes('integer') : type === 'integer';
}

// The types one property's schema admits (its anyOf/oneOf members' too).
function typesOf(schema: JsonSchema): Set<string> {
  const types = new Set<string>();
  const own = schema['type'];
  for (const type of Array.isArray(own) ? own : [own]) if (typeof type === 'string') types.add(type);
  for (const key of ['anyOf', 'oneOf']) {
    const members = schema[key];
    if (Array.isArray(members)) for (const member of members) if (isSchemaObject(member)) for (const type of typesOf(member)) types.add(type);
  }
  return types;
}

// Query strings, path segments and headers are text: a property whose schema wants a number, an integer or a
// boolean is converted when its text is written plainly, and left as text otherwise, for the schema to refuse.
export function textCoercion(schema: object): ((data: unknown) => void) | null {
  const properties = isSchemaObject(schema) ? schema['properties'] : undefined;
  if (!isSchemaObject(properties)) return null;
  const converters = Object.entries(properties).flatMap(([name, property]) => (isSchemaObject(property) ? [[name, converterFor(property)] as const] : []));
  return (data) => {
    if (!isSchemaObject(data)) return;
    for (const [name, convert] of converters) if (data[name] !== undefined) data[name] = convert(data[name]);
  };
}

function converterFor(schema: JsonSchema): (value: unknown) => unknown {
  const types = typesOf(schema);
  if (types.has('array')) {
    const items = isSchemaObject(schema['items']) ? converterFor(schema['items']) : (value: unknown) => value;
    return (value) => (Array.isArray(value) ? value : [value]).map(items);
  }
  if (types.has('string')) return (value) => value; // text is what it wants
  return (value) => {
    if (typeof value !== 'string') return value;
    if (types.has('integer') && INTEGER_TEXT.test(value)) return Number(value);
    if (types.has('number') && NUMBER_TEXT.test(value)) return Number(value);
    if (types.has('boolean') && Object.hasOwn(BOOLEAN_TEXT, value)) return BOOLEAN_TEXT[value];
    if (types.has('null') && value === '') return null;
    return value;
  };
}
