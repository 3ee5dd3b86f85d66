// What an adapter may ask the customer for before it can finish a payment (issue 10): a secure code (an OTP sent
// by SMS, e-mail or an app: answered with confirm_secure_code, sent again with resend_otp) or more data (a
// next step: answered with next_payment_step). Read from a pending answer's secure_code_request or next_step;
// a request we cannot show whole is refused as a whole (the payment then waits for the status checker).

import { isJsonObject } from '../../platform/lib/type-guards.ts';
import { NextStepSchema, SECURE_CODE_KINDS, SecureCodeRequestSchema, STEP_FIELD_TYPES, STEP_LIMITS, StepFieldSchema } from '@payrail/adapter-kit';
import Type from 'typebox';
import { Compile } from 'typebox/compile';

export type SecureCodeKind = (typeof SECURE_CODE_KINDS)[number];
type StepFieldType = (typeof STEP_FIELD_TYPES)[number];

// The kit's step schemas (packages/adapter-kit step-schemas.ts), field by field: each key is read on its own, so a
// refusal names it, null counts as absent, and a select's options are read only for a select.
const SECURE = SecureCodeRequestSchema.properties;
const NEXT_STEP = NextStepSchema.properties;
const FIELD = StepFieldSchema.properties;
const checks = {
  length: Compile(SECURE.length),
  kind: Compile(SECURE.kind),
  message: Compile(SECURE.message),
  resendAllowed: Compile(SECURE.resend_allowed),
  attemptsLeft: Compile(SECURE.attempts_left),
  stepMessage: Compile(NEXT_STEP.message),
  fields: Compile(Type.Array(Type.Unknown(), { minItems: 1, maxItems: STEP_LIMITS.fieldsMax })),
  name: Compile(FIELD.name),
  label: Compile(FIELD.label),
  type: Compile(FIELD.type),
  options: Compile(FIELD.options),
  pattern: Compile(FIELD.pattern),
  maxLength: Compile(FIELD.max_length),
  required: Compile(FIELD.required),
};
export const STEP_FIELDS_MAX = STEP_LIMITS.fieldsMax;
const EMAIL_PATTERN = /^[^\s@]{1,64}@[^\s@]{1,190}\.[^\s@]{2,63}$/;
const TEL_PATTERN = /^\+?[0-9][0-9 ()-]{3,23}$/;

export interface SecureCodeRequest {
  length: number | null; // the code's exact number of characters; null: 1 to 16
  kind: SecureCodeKind;
  message: string | null;
  resendAllowed: boolean;
  attemptsLeft: number | null; // as the adapter counts them; null: not said
}

interface StepFieldOption {
  value: string;
  label: string;
}

export interface StepField {
  name: string;
  label: string;
  type: StepFieldType;
  options: StepFieldOption[] | null; // select only
  pattern: string | null; // a whole-value JavaScript pattern (unicode mode)
  maxLength: number;
  required: boolean;
}

export interface NextStepRequest {
  fields: StepField[];
  message: string | null;
}

export type AdapterStep = { kind: 'secure_code'; secureCode: SecureCodeRequest } | { kind: 'next_step'; nextStep: NextStepRequest };

export type StepReading = { step: AdapterStep | null } | { problem: string };

type JsonObject = Record<string, unknown>;

// A pending answer's step: secure_code_request wins over next_step when an adapter sends both.
export function readAdapterStep(body: JsonObject): StepReading {
  const secureCode = body['secure_code_request'] ?? body['secureCodeRequest'];
  if (secureCode !== undefined && secureCode !== null) {
    const read = readSecureCodeRequest(secureCode);
    return typeof read === 'string' ? { problem: `secure_code_request ${read}` } : { step: { kind: 'secure_code', secureCode: read } };
  }
  const nextStep = body['next_step'] ?? body['nextStep'];
  if (nextStep !== undefined && nextStep !== null) {
    const read = readNextStepRequest(nextStep);
    return typeof read === 'string' ? { problem: `next_step ${read}` } : { step: { kind: 'next_step', nextStep: read } };
  }
  return { step: null };
}

function readSecureCodeRequest(value: unknown): SecureCodeRequest | string {
  if (!isJsonObject(value)) return 'is not an object';
  const { length, kind, message, resend_allowed: resendAllowed, attempts_left: attemptsLeft } = value;
  if (length !== undefined && !checks.length.Check(length)) {
    return `length must be an integer from ${STEP_LIMITS.secureCodeLengthMin} to ${STEP_LIMITS.secureCodeLengthMax}`;
  }
  if (kind !== undefined && !checks.kind.Check(kind)) return `kind must be one of ${SECURE_CODE_KINDS.join(', ')}`;
  if (isGiven(message) && !checks.message.Check(message)) return `message must be a string of at most ${STEP_LIMITS.messageCharsMax} characters`;
  if (resendAllowed !== undefined && !checks.resendAllowed.Check(resendAllowed)) return 'resend_allowed must be a boolean';
  if (attemptsLeft !== undefined && !checks.attemptsLeft.Check(attemptsLeft))
    return `attempts_left must be an integer from 0 to ${STEP_LIMITS.attemptsLeftMax}`;
  return {
    length: checks.length.Check(length) ? length : null,
    kind: checks.kind.Check(kind) ? kind : 'otp',
    message: checks.message.Check(message) ? message : null,
    resendAllowed: checks.resendAllowed.Check(resendAllowed) ? resendAllowed : true,
    attemptsLeft: checks.attemptsLeft.Check(attemptsLeft) ? attemptsLeft : null,
  };
}

function readNextStepRequest(value: unknown): NextStepRequest | string {
  if (!isJsonObject(value)) return 'is not an object';
  const { message, fields } = value;
  if (isGiven(message) && !checks.stepMessage.Check(message)) return `message must be a string of at most ${STEP_LIMITS.messageCharsMax} characters`;
  if (!checks.fields.Check(fields)) return `fields must list 1 to ${STEP_LIMITS.fieldsMax} fields`;
  const read: StepField[] = [];
  for (const [index, field] of fields.entries()) {
    const one = readStepField(field);
    if (typeof one === 'string') return `fields[${index}] ${one}`;
    if (read.some((earlier) => earlier.name === one.name)) return `fields[${index}] repeats the name ${one.name}`;
    read.push(one);
  }
  return { fields: read, message: checks.stepMessage.Check(message) ? message : null };
}

function readStepField(value: unknown): StepField | string {
  if (!isJsonObject(value)) return 'is not an object';
  const { name, label, type, options, pattern, max_length: maxLength, required } = value;
  if (!checks.name.Check(name)) return 'name must be a letter then up to 63 letters, digits or _';
  if (!checks.label.Check(label) || label.trim() === '') return `label must be 1 to ${STEP_LIMITS.labelCharsMax} characters`;
  const fieldType = type ?? 'text';
  if (!checks.type.Check(fieldType)) return `type must be one of ${STEP_FIELD_TYPES.join(', ')}`;
  if (maxLength !== undefined && !checks.maxLength.Check(maxLength)) return `max_length must be an integer from 1 to ${STEP_LIMITS.fieldCharsMax}`;
  if (required !== undefined && !checks.required.Check(required)) return 'required must be a boolean';
  const readPattern = patternOf(pattern);
  if (readPattern === undefined) return `pattern must be a valid JavaScript regular expression of at most ${STEP_LIMITS.patternCharsMax} characters`;
  const readOptions = fieldType === 'select' ? optionsOf(options) : null;
  if (readOptions === undefined) return `options must list 1 to ${STEP_LIMITS.optionsMax} strings or { value, label } objects for a select`;
  return {
    name,
    label,
    type: fieldType,
    options: readOptions,
    pattern: readPattern,
    maxLength: checks.maxLength.Check(maxLength) ? maxLength : STEP_LIMITS.fieldCharsMax,
    required: checks.required.Check(required) ? required : true,
  };
}

function optionsOf(options: unknown): StepFieldOption[] | undefined {
  if (!checks.options.Check(options)) return undefined;
  return options.map((option) => (typeof option === 'string' ? { value: option, label: option } : { value: option.value, label: option.label }));
}

// null: no pattern; undefined: a pattern we refuse.
function patternOf(pattern: unknown): string | null | undefined {
  if (!isGiven(pattern)) return null;
  if (!checks.pattern.Check(pattern)) return undefined;
  try {
    wholeValueRegExp(pattern);
    return pattern;
  } catch {
    return undefined;
  }
}

function wholeValueRegExp(pattern: string): RegExp {
  return new RegExp(`^(?:${pattern})$`, 'u');
}

// Absent: undefined or null (a message or a pattern may be sent as null).
function isGiven(value: unknown): boolean {
  return value !== undefined && value !== null;
}

// The code as the customer or merchant typed it, refused when it cannot be a code of this request.
export function secureCodeProblem(request: SecureCodeRequest, code: string): string | null {
  if (request.length !== null) {
    return new RegExp(`^[0-9A-Za-z]{${request.length}}$`).test(code) ? null : `must be ${request.length} letters or digits`;
  }
  return /^[0-9A-Za-z]+$/.test(code) && code.length <= STEP_LIMITS.secureCodeCharsMax
    ? null
    : `must be 1 to ${STEP_LIMITS.secureCodeCharsMax} letters or digits`;
}

export interface StepFieldProblem {
  field: string; // the field's name
  problem: 'unknown' | 'required' | 'too_long' | 'invalid';
  message: string;
}

// The values submitted for a next step, checked against the adapter's own list: every name known, every required
// one given, lengths, types, select options and patterns. Optional fields left empty are not sent.
export function checkStepFields(
  request: NextStepRequest,
  submitted: Readonly<Record<string, unknown>>,
): { values: Record<string, string> } | { problems: StepFieldProblem[] } {
  const problems: StepFieldProblem[] = [];
  for (const name of Object.keys(submitted)) {
    if (!request.fields.some((field) => field.name === name)) problems.push({ field: name, problem: 'unknown', message: 'is not a field of this step' });
  }
  const values: Record<string, string> = {};
  for (const field of request.fields) {
    const raw = submitted[field.name];
    const value = typeof raw === 'string' ? raw.trim() : raw === undefined || raw === null ? '' : null;
    const problem = value === null ? { problem: 'invalid' as const, message: 'must be a string' } : stepFieldValueProblem(field, value);
    if (problem) problems.push({ field: field.name, ...problem });
    else if (value !== '' && value !== null) values[field.name] = value;
  }
  return problems.length > 0 ? { problems } : { values };
}

function stepFieldValueProblem(field: StepField, value: string): Omit<StepFieldProblem, 'field'> | null {
  if (value === '') return field.required ? { problem: 'required', message: 'is required' } : null;
  if (value.length > field.maxLength) return { problem: 'too_long', message: `must be at most ${field.maxLength} characters` };
  if (field.type === 'select' && !(field.options ?? []).some((option) => option.value === value)) {
    return { problem: 'invalid', message: 'must be one of the offered options' };
  }
  if (field.type === 'email' && !EMAIL_PATTERN.test(value)) return { problem: 'invalid', message: 'must be an e-mail address' };
  if (field.type === 'tel' && !TEL_PATTERN.test(value)) return { problem: 'invalid', message: 'must be a phone number' };
  if (field.pattern !== null && !wholeValueRegExp(field.pattern).test(value)) return { problem: 'invalid', message: 'does not have the expected form' };
  return null;
}
