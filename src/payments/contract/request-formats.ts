import { isIP } from 'node:net';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { ISO_3166_ALPHA2 } from '../../platform/lib/countries.ts';
import type { CurrencyTable } from '../../platform/lib/currencies.ts';

// The patterns and formats the merchant API's request bodies (payments, payouts) share, and the one Ajv that
// compiles them: the API routes and the dashboard's payout form validate with the same rules.

export const HTTP_URL_PATTERN = '^[Hh][Tt][Tt][Pp][Ss]?://[^/?#]';
export const AMOUNT_STRING_PATTERN = '^[1-9][0-9]{0,31}$';

// Formats that are not in ajv-formats; addPaymentFormats registers them.
export const CURRENCY_FORMAT = 'iso4217-currency';
export const COUNTRY_FORMAT = 'iso3166-alpha2';
export const IP_FORMAT = 'ip';
export const DATE_YYYYMMDD_FORMAT = 'yyyymmdd';

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function isCalendarDateYyyymmdd(value: string): boolean {
  const match = /^([0-9]{4})([0-9]{2})([0-9]{2})$/.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const monthDays = month === 2 && isLeapYear(year) ? 29 : (DAYS_IN_MONTH[month - 1] ?? 0);
  return day <= monthDays;
}

// Registers the formats the payment schemas use beyond ajv-formats, so any Ajv instance
// (e.g. Fastify's) can compile them.
export function addPaymentFormats(ajv: Ajv, currencies: CurrencyTable): Ajv {
  addFormats.default(ajv, ['email', 'uri']);
  ajv.addFormat(IP_FORMAT, { type: 'string', validate: (value: string) => isIP(value) !== 0 });
  ajv.addFormat(DATE_YYYYMMDD_FORMAT, { type: 'string', validate: isCalendarDateYyyymmdd });
  ajv.addFormat(COUNTRY_FORMAT, { type: 'string', validate: (value: string) => ISO_3166_ALPHA2.has(value) });
  ajv.addFormat(CURRENCY_FORMAT, { type: 'string', validate: (value: string) => currencies.has(value) });
  return ajv;
}

// One Ajv per currency table, and a configuration's table is one object (buildCurrencyTable): Ajv keeps what it
// compiled by schema, so the payment and payout validators are compiled once per process, not for every app built.
const ajvsByCurrencies = new WeakMap<CurrencyTable, Ajv>();

export function paymentBodyAjv(currencies: CurrencyTable): Ajv {
  let ajv = ajvsByCurrencies.get(currencies);
  if (ajv === undefined) {
    ajv = addPaymentFormats(new Ajv({ allErrors: true, verbose: true, strictNumbers: true }), currencies);
    ajvsByCurrencies.set(currencies, ajv);
  }
  return ajv;
}
