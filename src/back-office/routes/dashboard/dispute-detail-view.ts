import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  DOCUMENT_COUNT_MAX,
  DOCUMENT_SIZE_MAX_BYTES,
  disputeAcceptsEvidence,
  evidenceQuotaOf,
  getDisputeDetail,
  type DisputeDeps,
  type DisputeDetail,
} from '../../../payments/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { roleMay } from '../../domain/roles.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { viewerOf } from './guard.ts';
import { memberPage } from './layout.ts';
import { statusBadge } from '../../pages/status-badge.ts';
import { bytesText, disputeTexts as T } from './texts-payouts.ts';

const MEBIBYTE = 1024 * 1024;

export interface DisputePageContext {
  deps: DisputeDeps;
  currencies: CurrencyTable;
  evidenceQuotaBytes: { production: number; sandbox: number };
}

// What the page says above the dispute: an upload's outcome.
export interface DisputePageOutcome {
  notice: string | null;
  problem: SafeHtml | null;
  status: number;
}

// One dispute of the viewer's merchant and mode: its facts, status history, documents and, for a role that may
// answer disputes while it is not resolved, the evidence form. Another merchant's token is a 404 (getDisputeDetail).
export async function showDispute(
  context: DisputePageContext,
  request: FastifyRequest,
  reply: FastifyReply,
  token: string,
  outcome: DisputePageOutcome = { notice: null, problem: null, status: 200 },
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const detail = await getDisputeDetail(context.deps.db, viewer, token);
  const { dispute } = detail;
  const open = disputeAcceptsEvidence(dispute.status);
  const form = !roleMay(viewer.role, 'dispute')
    ? ''
    : open
      ? uploadForm(request, dispute.token, (await evidenceQuotaOf(context.deps.db, viewer, context.evidenceQuotaBytes)).leftBytes)
      : html`<p>${T.closed}</p>`;
  const body = html`${outcome.notice ? html`<p class="ok" role="status">${outcome.notice}</p>` : ''}${outcome.problem ?? ''}
${facts(context.currencies, detail)}
${history(detail)}
${documents(detail)}
${form}
<p><a href="/dashboard/disputes">${T.back}</a></p>`;
  return memberPage(request, reply, { title: T.detailTitle(dispute.token), area: 'disputes', body, status: outcome.status });
}

function facts(currencies: CurrencyTable, { dispute }: DisputeDetail): SafeHtml {
  const at = (date: Date | null) => (date === null ? '—' : html`<time datetime="${date.toISOString()}">${utcMinute(date)}</time>`);
  return html`<dl class="facts">
  <dt>${T.status}</dt><dd>${statusBadge(dispute.status)}</dd>
  <dt>${T.amount}</dt><dd>${amountText(currencies, dispute.amountMinor, dispute.currency)}</dd>
  <dt>${T.payment}</dt><dd><a href="/dashboard/payments/${dispute.paymentToken}"><code>${dispute.paymentToken}</code></a></dd>
  <dt>${T.token}</dt><dd><code>${dispute.token}</code></dd>
  <dt>${T.description}</dt><dd class="prewrap">${dispute.description}</dd>
  <dt>${T.opened}</dt><dd>${at(dispute.createdAt)}</dd>
  <dt>${T.resolved}</dt><dd>${at(dispute.resolvedAt)}</dd>
  ${dispute.resolutionNote ? html`<dt>${T.resolutionNote}</dt><dd class="prewrap">${dispute.resolutionNote}</dd>` : ''}
</dl>`;
}

function history({ history: events }: DisputeDetail): SafeHtml {
  return html`<h2>${T.historyHeading}</h2>
<ol class="timeline">${events.map((event) => {
    const at = new Date(event.occurredAt);
    const when = Number.isNaN(at.getTime()) ? event.occurredAt : utcMinute(at);
    return html`<li><time datetime="${event.occurredAt}">${when}</time> ${statusBadge(event.status)}</li>`;
  })}</ol>`;
}

function documents({ dispute }: DisputeDetail): SafeHtml {
  if (dispute.documents.length === 0) return html`<h2>${T.documentsHeading}</h2><p class="empty">${T.noDocuments}</p>`;
  return html`<h2>${T.documentsHeading}</h2>
<div class="table-wrap"><table>
<caption>${T.documentsCaption}</caption>
<thead><tr><th scope="col">${T.columnFile}</th><th scope="col">${T.columnType}</th><th scope="col" class="num">${T.columnSize}</th><th scope="col">${T.columnAdded}</th></tr></thead>
<tbody>${dispute.documents.map(
    (document) => html`<tr>
  <th scope="row"><a href="/dashboard/disputes/${dispute.token}/documents/${document.id}" download>${document.fileName}</a></th>
  <td>${document.mediaType}</td>
  <td class="num">${bytesText(document.sizeBytes)}</td>
  <td><time datetime="${document.createdAt.toISOString()}">${utcMinute(document.createdAt)}</time></td>
</tr>`,
  )}</tbody>
</table></div>`;
}

// multipart/form-data: the CSRF token rides in the action's query, since it is checked before the body is read.
function uploadForm(request: FastifyRequest, token: string, leftBytes: number): SafeHtml {
  const action = `/dashboard/disputes/${token}/evidence?${new URLSearchParams({ _csrf: request.csrfToken }).toString()}`;
  return html`<h2 id="upload-heading">${T.uploadHeading}</h2>
<form method="post" action="${action}" enctype="multipart/form-data" class="stack" aria-labelledby="upload-heading">
<label for="evidence-files">${T.uploadLabel}</label>
<small id="evidence-hint">${T.uploadHint(DOCUMENT_COUNT_MAX, DOCUMENT_SIZE_MAX_BYTES / MEBIBYTE, bytesText(leftBytes))}</small>
<input id="evidence-files" name="document[]" type="file" multiple accept="application/pdf,image/png,image/jpeg" aria-describedby="evidence-hint" required>
<button type="submit">${T.uploadSubmit}</button>
</form>`;
}
