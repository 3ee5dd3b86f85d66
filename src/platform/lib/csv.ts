// CSV as Payrail's exports write it (RFC 4180): a field with a comma, quote or line break is quoted, its
// quotes doubled; lines end in CRLF. A text field a spreadsheet would read as a formula (it starts with = + - @,
// a tab or a carriage return) gets a leading apostrophe, so opening an export never runs what a customer typed
// (OWASP "CSV injection"); a plain number, negative ones included, stays a number.

const NUMBER_TEXT = /^-?[0-9]+(\.[0-9]+)?$/;
const FORMULA_START = /^[=+\-@\t\r]/;

export type CsvValue = string | number | null;

export function csvField(value: CsvValue): string {
  if (value === null) return '';
  let text = String(value);
  if (!NUMBER_TEXT.test(text) && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
