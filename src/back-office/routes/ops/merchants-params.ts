import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { formText } from '../../pages/machinery.ts';

// What the merchants and gateways pages share: ids from the path, the `?done=` notice after an action.

const ID_PATTERN = /^[1-9][0-9]{0,15}$/;

// A merchant's or gateway's id from the path; anything else is no page at all.
export function recordIdOf(text: string): number {
  const id = ID_PATTERN.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id)) throw new ApiError('not_found', 404, 'This page does not exist.');
  return id;
}

// The result of the action that redirected here, said once (a role=status message); an unknown flag says nothing.
export function doneNotice(query: unknown, notices: Readonly<Record<string, string>>): SafeHtml | '' {
  const done = formText(query, 'done');
  return Object.hasOwn(notices, done) ? html`<p class="ok" role="status">${notices[done]}</p>` : '';
}
