import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PLACEHOLDER_NAMES, DEMO_PLACEHOLDERS, type DemoPlaceholderName } from './openapi-demo-placeholders.ts';
import { isJsonObject } from './type-guards.ts';

// The demo seed (runtime/demo-seed.ts) writes what it created to the data folder; the document of that server shows
// those values where its examples carry the placeholders, so "Try it out" acts on the seed's payments. Without the
// file (no seed: production, an external database) the placeholders stay.

export type DemoValues = Partial<Record<DemoPlaceholderName, string>>;

const DEMO_VALUES_FILE = 'demo-seed.json';
const DEMO_VALUES_BYTES_MAX = 64 * 1024;

export function demoValuesPath(dataDir: string): string {
  return join(dataDir, DEMO_VALUES_FILE);
}

export function readDemoValues(dataDir: string): DemoValues {
  let text: string;
  try {
    text = readFileSync(demoValuesPath(dataDir), 'utf8');
  } catch {
    return {};
  }
  if (text.length > DEMO_VALUES_BYTES_MAX) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return {};
  }
  if (!isJsonObject(parsed)) return {};
  const values: DemoValues = {};
  for (const name of DEMO_PLACEHOLDER_NAMES) {
    const value = parsed[name];
    if (typeof value === 'string' && /^[0-9a-f]{32}$/.test(value)) values[name] = value;
  }
  return values;
}

// Every text inside `value` with the placeholders replaced, in place.
function replaceInside(value: unknown, replace: (text: string) => string): void {
  if (Array.isArray(value)) {
    value.forEach((item, index) => {
      if (typeof item === 'string') value[index] = replace(item);
      else replaceInside(item, replace);
    });
  } else if (isJsonObject(value)) {
    for (const [key, item] of Object.entries(value)) {
      if (typeof item === 'string') value[key] = replace(item);
      else replaceInside(item, replace);
    }
  }
}

// A copy of the document with the demo values in place of their placeholders (the document itself when none).
export function withDemoValues<T>(document: T, values: DemoValues): T {
  const replacements = DEMO_PLACEHOLDER_NAMES.flatMap((name): [string, string][] => {
    const real = values[name];
    return real === undefined ? [] : [[DEMO_PLACEHOLDERS[name], real]];
  });
  if (replacements.length === 0) return document;
  const copy = structuredClone(document);
  replaceInside(copy, (text) => replacements.reduce((replaced, [placeholder, real]) => replaced.replaceAll(placeholder, real), text));
  return copy;
}
