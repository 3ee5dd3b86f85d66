// What an adapter may ask the customer for before it can finish a payment (issue 10): a secure code (an OTP sent
// by SMS, e-mail or an app: answered with confirm_secure_code, sent again with resend_otp) or more data (a
// next step: answered with next_payment_step). Read from a pending answer's secure_code_request or next_step;
// a request we cannot show whole is refused as a whole (the payment then waits for the status checker).

const SECURE_CODE_KINDS = ['otp', 'sms', 'email', 'app'] as const;
export type SecureCodeKind = (typeof SECURE_CODE_KINDS)[number];
const STEP_FIELD_TYPES = ['text', 'tel', 'email', 'select'] as const;
type StepFieldType = (typeof STEP_FIELD_TYPES)[number];

const SECURE_CODE_LENGTH_MIN = 4;
const SECURE_CODE_LENGTH_MAX = 8;
const SECURE_CODE_CHARS_MAX = 16; // a code of no stated length
const STEP_MESSAGE_CHARS_MAX = 500;
export const STEP_FIELDS_MAX = 10;
const STEP_FIELD_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;
const STEP_LABEL_CHARS_MAX = 200;
const STEP_OPTIONS_MAX = 50;
const STEP_OPTION_CHARS_MAX = 200;
const STEP_PATTERN_CHARS_MAX = 200;
const STEP_FIELD_CHARS_MAX = 256; // the largest max_length a field may have, and its default
const ATTEMPTS_LEFT_MAX = 100;
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
  if (length !== undefined && !(Number.isInteger(length) && (length as number) >= SECURE_CODE_LENGTH_MIN && (length as number) <= SECURE_CODE_LENGTH_MAX)) {
    return `length must be an integer from ${SECURE_CODE_LENGTH_MIN} to ${SECURE_CODE_LENGTH_MAX}`;
  }
  if (kind !== undefined && !(SECURE_CODE_KINDS as readonly unknown[]).includes(kind)) return `kind must be one of ${SECURE_CODE_KINDS.join(', ')}`;
  const readMessage = optionalText(message, STEP_MESSAGE_CHARS_MAX);
  if (readMessage === undefined) return `message must be a string of at most ${STEP_MESSAGE_CHARS_MAX} characters`;
  if (resendAllowed !== undefined && typeof resendAllowed !== 'boolean') return 'resend_allowed must be a boolean';
  if (attemptsLeft !== undefined && !(Number.isInteger(attemptsLeft) && (attemptsLeft as number) >= 0 && (attemptsLeft as number) <= ATTEMPTS_LEFT_MAX)) {
    return `attempts_left must be an integer from 0 to ${ATTEMPTS_LEFT_MAX}`;
  }
  return {
    length: (length as number | undefined) ?? null,
    kind: (kind as SecureCodeKind | undefined) ?? 'otp',
    message: readMessage,
    resendAllowed: resendAllowed ?? true,
    attemptsLeft: (attemptsLeft as number | undefined) ?? null,
  };
}

function readNextStepRequest(value: unknown): NextStepRequest | string {
  if (!isJsonObject(value)) return 'is not an object';
  const message = optionalText(value['message'], STEP_MESSAGE_CHARS_MAX);
  if (message === undefined) return `message must be a string of at most ${STEP_MESSAGE_CHARS_MAX} characters`;
  const fields = value['fields'];
  if (!Array.isArray(fields) || fields.length === 0 || fields.length > STEP_FIELDS_MAX) return `fields must list 1 to ${STEP_FIELDS_MAX} fields`;
  const read: StepField[] = [];
  for (const [index, field] of fields.entries()) {
    const one = readStepField(field);
    if (typeof one === 'string') return `fields[${index}] ${one}`;
    if (read.some((earlier) => earlier.name === one.name)) return `fields[${index}] repeats the name ${one.name}`;
    read.push(one);
  }
  return { fields: read, message };
}

function readStepField(value: unknown): StepField | string {
  if (!isJsonObject(value)) return 'is not an object';
  const { name, label, type, options, pattern, max_length: maxLength, required } = value;
  if (typeof name !== 'string' || !STEP_FIELD_NAME_PATTERN.test(name)) return 'name must be a letter then up to 63 letters, digits or _';
  if (typeof label !== 'string' || label.trim() === '' || label.length > STEP_LABEL_CHARS_MAX) return `label must be 1 to ${STEP_LABEL_CHARS_MAX} characters`;
  const fieldType = type ?? 'text';
  if (!(STEP_FIELD_TYPES as readonly unknown[]).includes(fieldType)) return `type must be one of ${STEP_FIELD_TYPES.join(', ')}`;
  if (maxLength !== undefined && !(Number.isInteger(maxLength) && (maxLength as number) >= 1 && (maxLength as number) <= STEP_FIELD_CHARS_MAX)) {
    return `max_length must be an integer from 1 to ${STEP_FIELD_CHARS_MAX}`;
  }
  if (required !== undefined && typeof required !== 'boolean') return 'required must be a boolean';
  const readPattern = patternOf(pattern);
  if (readPattern === undefined) return `pattern must be a valid JavaScript regular expression of at most ${STEP_PATTERN_CHARS_MAX} characters`;
  const readOptions = fieldType === 'select' ? optionsOf(options) : null;
  if (readOptions === undefined) return `options must list 1 to ${STEP_OPTIONS_MAX} strings or { value, label } objects for a select`;
  return {
    name,
    label,
    type: fieldType as StepFieldType,
    options: readOptions,
    pattern: readPattern,
    maxLength: (maxLength as number | undefined) ?? STEP_FIELD_CHARS_MAX,
    required: required ?? true,
  };
}

function optionsOf(options: unknown): StepFieldOption[] | undefined {
  if (!Array.isArray(options) || options.length === 0 || options.length > STEP_OPTIONS_MAX) return undefined;
  const read: StepFieldOption[] = [];
  for (const option of options) {
    const pair = typeof option === 'string' ? { value: option, label: option } : isJsonObject(option) ? option : null;
    const fits = (text: unknown) => typeof text === 'string' && text !== '' && text.length <= STEP_OPTION_CHARS_MAX;
    if (pair === null || !fits(pair['value']) || !fits(pair['label'])) return undefined;
    read.push({ value: pair['value'] as string, label: pair['label'] as string });
  }
  return read;
}

// null: no pattern; undefined: a pattern we refuse.
function patternOf(pattern: unknown): string | null | undefined {
  if (pattern === undefined || pattern === null) return null;
  if (typeof pattern !== 'string' || pattern === '' || pattern.length > STEP_PATTERN_CHARS_MAX) return undefined;
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

// null: absent; undefined: not a string that fits.
function optionalText(value: unknown, charsMax: number): string | null | undefined {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' && value.length <= charsMax ? value : undefined;
}

// The code as the customer or merchant typed it, refused when it cannot be a code of this request.
export function secureCodeProblem(request: SecureCodeRequest, code: string): string | null {
  if (request.length !== null) {
    return new RegExp(`^[0-9A-Za-z]{${request.length}}$`).test(code) ? null : `must be ${request.length} letters or digits`;
  }
  return /^[0-9A-Za-z]+$/.test(code) && code.length <= SECURE_CODE_CHARS_MAX ? null : `must be 1 to ${SECURE_CODE_CHARS_MAX} letters or digits`;
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

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
