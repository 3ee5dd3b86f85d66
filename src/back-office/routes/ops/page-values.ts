import { ApiError } from '../../../platform/lib/errors.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { utcMinute } from '../../pages/amount-text.ts';

// What the console's pages show the same way (amounts: pages/amount-text.ts).

// A moment, UTC to the minute; the datetime attribute keeps the instant.
export function timeText(at: Date | null): SafeHtml | string {
  if (at === null) return '—';
  return html`<time datetime="${at.toISOString()}">${utcMinute(at)}</time>`;
}

// A record id in a path: a positive integer, or the page does not exist.
export function pathIdOf(text: string): number {
  const id = /^[0-9]{1,15}$/.test(text) ? Number(text) : 0;
  if (id < 1) throw new ApiError('not_found', 404, 'not found');
  return id;
}

// The message a page shows after the action it was redirected from (`?done=`), one of the page's own texts.
export function doneNotice(texts: Readonly<Record<string, string>>, done: string | undefined): SafeHtml | '' {
  const text = done === undefined ? undefined : texts[done];
  return text === undefined ? '' : html`<p class="ok" role="status">${text}</p>`;
}
