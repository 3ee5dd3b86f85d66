import { html, type SafeHtml } from '../../platform/lib/html.ts';

// A status as every back-office page shows it (the stylesheet colours each status-<name>).
export function statusBadge(status: string): SafeHtml {
  return html`<span class="status status-${status}">${status}</span>`;
}
