import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { SECRET_CLEAR_SUFFIX, SECRET_SET_TEXT, type GatewayFormField, type GatewayFormValues, type KeyValueRow } from '../../domain/gateway-form.ts';

type FieldErrors = Readonly<Record<string, readonly string[]>>;

const BLANK_ROWS = 3; // new key/value rows a form offers each time it is shown

// An input's id from its name (dots, brackets and the provider-keys star are no id characters).
export function inputIdOf(name: string): string {
  return `gw-${name.replaceAll('*', 'provider').replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

export function fieldErrorAttributes(errors: FieldErrors, name: string): SafeHtml | '' {
  return (errors[name]?.length ?? 0) > 0 ? html` aria-invalid="true" aria-describedby="${inputIdOf(name)}-error"` : '';
}

export function fieldErrors(errors: FieldErrors, name: string): SafeHtml | '' {
  const messages = errors[name] ?? [];
  return messages.length === 0 ? '' : html`<p class="field-error" id="${inputIdOf(name)}-error">${messages.join('; ')}</p>`;
}

// One settings field as its kind wants it. A secret is never written into the page: a set one shows a placeholder,
// blank keeps it, a box removes it.
export function gatewayFieldInput(field: GatewayFormField, values: GatewayFormValues, messages: readonly string[]): SafeHtml {
  const id = inputIdOf(field.name);
  const errors = { [field.name]: messages };
  const hint = field.description === null ? '' : html`<small>${field.description}</small>`;
  const label = html`<label for="${id}">${field.label}${field.required ? ' (required)' : ''} <code>${field.name}</code></label>`;
  if (field.rows !== null) return keyValueRows(field, values.rows[field.name] ?? [], messages);
  return html`${label}
  ${control(field, values.values[field.name] ?? '', fieldErrorAttributes(errors, field.name))}
  ${hint}
  ${fieldErrors(errors, field.name)}`;
}

function control(field: GatewayFormField, value: string, invalid: SafeHtml | ''): SafeHtml {
  const id = inputIdOf(field.name);
  const required = field.required ? html` required` : '';
  const maxLength = field.maxLength === null ? '' : html` maxlength="${field.maxLength}"`;
  switch (field.kind) {
    case 'secret': {
      const set = value === SECRET_SET_TEXT;
      const clear = set ? html`<label class="choice"><input type="checkbox" name="${field.name}${SECRET_CLEAR_SUFFIX}" value="on"> Remove it</label>` : '';
      const placeholder = set ? `${SECRET_SET_TEXT}: blank keeps it` : 'not set';
      return html`<input id="${id}" name="${field.name}" type="password" autocomplete="new-password" value="" placeholder="${placeholder}"${
        set ? '' : required
      }${maxLength}${invalid}>${clear}`;
    }
    case 'boolean':
      return selectOf(
        id,
        field.name,
        value,
        [
          ['', 'not set'],
          ['true', 'yes'],
          ['false', 'no'],
        ],
        invalid,
      );
    case 'select':
      return selectOf(
        id,
        field.name,
        value,
        [...(field.required ? [] : [['', 'not set'] as const]), ...(field.options ?? []).map((option) => [option, option] as const)],
        invalid,
      );
    case 'integer':
    case 'number':
      return html`<input id="${id}" name="${field.name}" inputmode="${field.kind === 'integer' ? 'numeric' : 'decimal'}" value="${value}"${required}${invalid}>`;
    default:
      if (field.list) return html`<textarea id="${id}" name="${field.name}" rows="2"${invalid}>${value}</textarea>`;
      return html`<input id="${id}" name="${field.name}" type="${field.kind === 'url' ? 'url' : 'text'}" value="${value}" autocomplete="off"${required}${maxLength}${invalid}>`;
  }
}

function selectOf(id: string, name: string, value: string, options: readonly (readonly [string, string])[], invalid: SafeHtml | ''): SafeHtml {
  return html`<select id="${id}" name="${name}"${invalid}>${options.map(
    ([option, label]) => html`<option value="${option}"${option === value ? html` selected` : ''}>${label}</option>`,
  )}</select>`;
}

// Key/value rows: the ones stored, then a few blank ones to add to; a row with its key blanked is removed.
function keyValueRows(field: GatewayFormField, rows: readonly KeyValueRow[], messages: readonly string[]): SafeHtml {
  const spec = field.rows;
  if (spec === null) return html``;
  const room = field.maxItems === null ? BLANK_ROWS : Math.max(0, Math.min(BLANK_ROWS, field.maxItems - rows.length));
  const blank: KeyValueRow[] = Array.from({ length: room }, () => ({ key: '', value: '', secret: spec.secretValues === 'all' }));
  const id = inputIdOf(field.name);
  const row = (entry: KeyValueRow, index: number) => html`<tr>
  <td><input name="${spec.keyInput}" value="${entry.key}" aria-label="${field.label}: key ${index + 1}" autocomplete="off"${
    spec.keyMaxLength === null ? '' : html` maxlength="${spec.keyMaxLength}"`
  }></td>
  <td>${
    entry.secret
      ? html`<input name="${spec.valueInput}" type="password" autocomplete="new-password" value="" placeholder="${
          entry.value === SECRET_SET_TEXT ? `${SECRET_SET_TEXT}: blank keeps it` : ''
        }" aria-label="${field.label}: value ${index + 1} (secret)">`
      : html`<input name="${spec.valueInput}" value="${entry.value}" aria-label="${field.label}: value ${index + 1}" autocomplete="off">`
  }</td>
</tr>`;
  return html`<div class="rows" id="${id}">
<p><strong>${field.label}</strong> <code>${field.name}</code>${field.description === null ? '' : html`<br><small>${field.description}</small>`}</p>
<table><thead><tr><th scope="col">Key</th><th scope="col">Value</th></tr></thead>
<tbody>${[...rows, ...blank].map(row)}</tbody></table>
${fieldErrors({ [field.name]: messages }, field.name)}
</div>`;
}
