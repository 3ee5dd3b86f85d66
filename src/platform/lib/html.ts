// HTML built from template strings: every interpolation is escaped unless it is SafeHtml,
// so markup can only come from a template literal or an explicit raw() call.

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

// Beyond HTML_ESCAPES: the backtick, the equals sign and whitespace, so an escaped value cannot
// end an attribute even where a template forgot the quotes.
const ATTRIBUTE_ESCAPES: Readonly<Record<string, string>> = {
  ...HTML_ESCAPES,
  '`': '&#96;',
  '=': '&#61;',
  ' ': '&#32;',
  '\t': '&#9;',
  '\n': '&#10;',
  '\r': '&#13;',
  '\f': '&#12;',
};

// Safe in element text and in quoted attribute values.
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => HTML_ESCAPES[character] ?? character);
}

// Safe in any attribute value, quoted or not (e.g. a whole document in srcdoc="…").
export function escapeAttribute(text: string): string {
  return text.replace(/[&<>"'`= \t\n\r\f]/g, (character) => ATTRIBUTE_ESCAPES[character] ?? character);
}

export class SafeHtml {
  readonly html: string;

  constructor(trustedHtml: string) {
    this.html = trustedHtml;
  }

  toString(): string {
    return this.html;
  }
}

// Marks a string as markup; only for HTML we wrote ourselves, never for request or adapter data.
export function raw(trustedHtml: string): SafeHtml {
  return new SafeHtml(trustedHtml);
}

export type HtmlValue = SafeHtml | string | number | bigint | false | null | undefined | readonly HtmlValue[];

function renderValue(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.html;
  if (Array.isArray(value)) return value.map(renderValue).join('');
  return escapeHtml(String(value));
}

// Interpolations sit in element text or in double-quoted attribute values; escapeHtml covers both.
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  for (let index = 0; index < values.length; index += 1) {
    markup += renderValue(values[index]) + (strings[index + 1] ?? '');
  }
  return new SafeHtml(markup);
}
