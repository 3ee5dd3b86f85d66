// Requisites an adapter returns (bank details the customer pays to), as the service presents them.
import type { AdapterRequisites } from './adapter-answer.ts';

export type RequisiteType = 'card' | 'sbp' | 'link' | 'account';

// spec 2.9: holder becomes name, bank_name becomes bank, card becomes pan; the other standard keys keep their names.
const STANDARD_STRING_KEYS: readonly (readonly [adapterKey: string, presentedKey: string])[] = [
  ['holder', 'name'],
  ['bank_name', 'bank'],
  ['card', 'pan'],
  ['phone', 'phone'],
  ['account', 'account'],
  ['link', 'link'],
  ['qr_data', 'qr_data'],
];

export function mapRequisites(requisites: AdapterRequisites | null, customFields: readonly string[]): Record<string, unknown> | null {
  if (requisites === null) return null;
  const entries: [string, unknown][] = [];
  for (const [adapterKey, presentedKey] of STANDARD_STRING_KEYS) {
    const value = ownValue(requisites, adapterKey);
    if (typeof value === 'string') entries.push([presentedKey, value]);
  }
  const deeplink = ownValue(requisites, 'deeplink');
  if (typeof deeplink === 'boolean') entries.push(['deeplink', deeplink]);
  // spec 2.9: custom keys come last, so one named like a standard key overrides it; missing or empty → null.
  for (const customKey of customFields) {
    const value = ownValue(requisites, customKey);
    entries.push([customKey, value === undefined || value === '' ? null : value]);
  }
  // fromEntries defines own properties, so a custom key such as "__proto__" cannot touch the prototype.
  return Object.fromEntries(entries);
}

export function requisitesForType(mapped: Record<string, unknown> | null, requisiteType: RequisiteType | null): Record<string, Record<string, unknown>> {
  const requisite = (key: string): unknown => presentOrNull(mapped === null ? undefined : ownValue(mapped, key));
  switch (requisiteType) {
    case 'card':
      return { card: { name: requisite('name'), bank: requisite('bank'), pan: requisite('pan') } };
    case 'sbp':
      return { sbp: { name: requisite('name'), bank: requisite('bank'), phone: requisite('phone') } };
    case 'link':
      return { link: { url: requisite('link') } };
    case 'account':
      return { account: { number: requisite('account'), name: requisite('name'), bank: requisite('bank') } };
    case null:
      return {};
  }
}

function ownValue(source: Record<string, unknown>, key: string): unknown {
  return Object.hasOwn(source, key) ? source[key] : undefined;
}

function presentOrNull(value: unknown): unknown {
  return value === undefined || value === '' ? null : value;
}
