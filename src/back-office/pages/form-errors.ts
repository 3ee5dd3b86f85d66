import { ApiError } from '../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../platform/lib/html.ts';

// A flow's refusal as the form shows it: the message, and each field's problem, in an alert the screen reader reads.
export function problemOf(error: unknown): SafeHtml {
  if (!(error instanceof ApiError)) throw error;
  const fields = fieldErrors(error);
  return html`<div class="error" role="alert"><p>${error.message}</p>${
    fields.length > 0 ? html`<ul>${fields.map((field) => html`<li>${field.field}: ${field.message}</li>`)}</ul>` : ''
  }</div>`;
}

function fieldErrors(error: ApiError): { field: string; message: string }[] {
  return error.items.flatMap((item) => (item.field ? [{ field: item.field, message: item.message }] : []));
}
