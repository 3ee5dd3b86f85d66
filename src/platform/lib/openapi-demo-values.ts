import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_PLACEHOLDERS, type DemoPlaceholderName } from './openapi-demo-placeholders.ts';

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
  if (parsed === null || typeof parsed !== 'object') return {};
  const values: DemoValues = {};
  for (const name of Object.keys(DEMO_PLACEHOLDERS) as DemoPlaceholderName[]) {
    const value = (parsed as Record<string, unknown>)[name];
    if (typeof value === 'string' && /^[0-9a-f]{32}$/.test(value)) values[name] = value;
  }
  return values;
}

function replaceIn(value: unknown, replacements: readonly [string, string][]): unknown {
  if (typeof value === 'string') return replacements.reduce((text, [placeholder, real]) => text.replaceAll(placeholder, real), value);
  if (Array.isArray(value)) return value.map((item) => replaceIn(item, replacements));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceIn(item, replacements)]));
  }
  return value;
}

export function withDemoValues<T>(document: T, values: DemoValues): T {
  const replacements = (Object.entries(values) as [DemoPlaceholderName, string][]).map(([name, real]): [string, string] => [DEMO_PLACEHOLDERS[name], real]);
  return replacements.length === 0 ? document : (replaceIn(document, replacements) as T);
}
