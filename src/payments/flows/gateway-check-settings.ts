import { Ajv, type ErrorObject } from 'ajv';
import addFormats from 'ajv-formats';
import { ApiError } from '../../platform/lib/errors.ts';
import { JSON_NESTING_DEPTH_MAX } from '../../platform/lib/json-body-parser.ts';
import { NUL_MESSAGE, nulPath } from '../../platform/lib/request-validation.ts';
import { isJsonObject } from '../../platform/lib/type-guards.ts';
import { GatewaySettingsSchema, type GatewaySettings } from '../contract/gateway-settings.ts';
import { assertRunnableSettings } from './gateways.ts';

// spec 2.10: a gateway's settings checked as the admin API checks them before it stores them (POST and PUT
// /api/admin/v1/merchants/{id}/gateways). First what the API refuses before any schema (a NUL, a lone surrogate, a
// prototype-poisoning key, too deep a nesting: request-validation.ts, json-body-parser.ts); then the settings schema,
// validated by Ajv with the options of the request validator (all errors, nothing coerced, no NaN or Infinity), its
// errors named as the error handler names them; then assertRunnableSettings, the route's own rules (full_link or a
// rabbit_url, the status_checker_time_rates schedule, provider keys within bounds, custom_host, assets). A form that
// stores only settings read here stores nothing the API would refuse (test/payments/integration/gateway-check.test.ts
// holds the two side by side).

export interface GatewaySettingsProblem {
  field: string; // as the API names it: settings.gateway_settings.full_link
  message: string;
}

const settingsAjv = new Ajv({ allErrors: true, removeAdditional: false, useDefaults: true, coerceTypes: false, strictNumbers: true, addUsedSchema: false });
addFormats.default(settingsAjv);
const validateSettings = settingsAjv.compile<GatewaySettings>(GatewaySettingsSchema);

export type GatewaySettingsReading = { ok: true; settings: GatewaySettings } | { ok: false; problems: GatewaySettingsProblem[] };

// The settings the API would store, or every problem it would answer 422 with.
export function readGatewaySettings(candidate: unknown): GatewaySettingsReading {
  const unreadable = unreadableProblem(candidate);
  if (unreadable !== null) return { ok: false, problems: [unreadable] };
  if (!validateSettings(candidate)) return { ok: false, problems: schemaProblems(validateSettings.errors ?? []) };
  try {
    assertRunnableSettings(candidate);
    return { ok: true, settings: candidate };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { ok: false, problems: error.items.map((item) => ({ field: item.field ?? 'settings', message: item.message })) };
  }
}

function unreadableProblem(candidate: unknown): GatewaySettingsProblem | null {
  const nulAt = nulPath(candidate, '', 0);
  if (nulAt === null) return illFormedProblem(candidate, 'settings', 2); // the body's settings: its second level
  return { field: ['settings', ...nulAt.split('/').filter(Boolean)].join('.'), message: NUL_MESSAGE };
}

function illFormedProblem(value: unknown, field: string, depth: number): GatewaySettingsProblem | null {
  if (typeof value === 'string') return value.isWellFormed() ? null : { field, message: 'must be Unicode text: it holds a lone UTF-16 surrogate' };
  if (value === null || typeof value !== 'object') return null;
  if (depth > JSON_NESTING_DEPTH_MAX) return { field, message: `nests objects and arrays deeper than a JSON body may (${JSON_NESTING_DEPTH_MAX} levels)` };
  for (const [key, inner] of Object.entries(value)) {
    const at = `${field}.${key}`;
    if (key === '__proto__' || (key === 'constructor' && isJsonObject(inner) && Object.hasOwn(inner, 'prototype'))) {
      return { field: at, message: 'is a key a JSON body may not hold (prototype poisoning)' };
    }
    if (!key.isWellFormed()) return { field, message: 'has a key that is not Unicode text (a lone UTF-16 surrogate)' };
    const problem = illFormedProblem(inner, at, depth + 1);
    if (problem !== null) return problem;
  }
  return null;
}

// As platform/lib/error-handler.ts names a body's validation errors: the dotted path (with the missing or unknown
// property), the first message of each field.
function schemaProblems(errors: readonly ErrorObject[]): GatewaySettingsProblem[] {
  const problems = new Map<string, GatewaySettingsProblem>();
  for (const error of errors) {
    const segments = ['settings', ...error.instancePath.split('/').filter(Boolean)];
    const missing = error.params['missingProperty'];
    const extra = error.params['additionalProperty'];
    if (typeof missing === 'string') segments.push(missing);
    if (typeof extra === 'string') segments.push(extra);
    const field = segments.join('.');
    const message = typeof extra === 'string' ? 'is not a known field' : (error.message ?? 'is invalid');
    const key = `${field}|${typeof extra === 'string' ? 'unknown' : 'invalid'}`;
    if (!problems.has(key)) problems.set(key, { field, message });
  }
  return [...problems.values()];
}
