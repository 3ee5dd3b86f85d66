import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { getMerchant } from '../../../payments/index.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import type { DashboardViewer } from '../../flows/sessions.ts';
import { utcMinute } from '../../pages/amount-text.ts';
import { signatureSection, testCardsSection } from './developers-docs.ts';
import { viewerOf } from './guard.ts';
import { ifAllowed, memberPage } from './layout.ts';
import { csrfField } from '../../pages/document.ts';
import { developerTexts as T } from './texts-developers.ts';

type Environment = 'sandbox' | 'production';

export const MODE_NAMES: Readonly<Record<Environment, string>> = { sandbox: 'test', production: 'live' };

interface KeyView {
  environment: Environment;
  keyPrefix: string;
  rotatedAt: Date;
}

// Developers: the API keys (prefixes only), where notifications stand, how to verify them, the sandbox test cards
// and the way to the sandbox console. Read by every role; each action is offered to the roles that may take it.
export async function developersPages(app: FastifyInstance): Promise<void> {
  app.get('/developers', async (request, reply) => showDevelopers(app, request, reply));
}

// The page, also as the answer to a refused action (`notice`, with its status).
export async function showDevelopers(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  notice?: SafeHtml,
  status = 200,
): Promise<FastifyReply> {
  const viewer = viewerOf(request);
  const merchant = await getMerchant(app.dashboardDeps.db, viewer.merchantId);
  const keys: KeyView[] = merchant.keys.map((key) => ({ environment: key.environment, keyPrefix: key.keyPrefix, rotatedAt: key.rotatedAt }));
  const ownKey = keys.find((key) => key.environment === viewer.environment) ?? null;
  const body = html`${notice ?? ''}
${keysSection(request, viewer, keys)}
<h2 id="notifications">${T.notificationsHeading}</h2>
<p>${T.notificationsIntro}</p>
<p><a href="/dashboard/developers/notifications">${T.notificationsLink}</a> · <a href="/dashboard/developers/notifications?failed=1">${T.failedLink}</a></p>
${signatureSection(ownKey?.keyPrefix ?? null, MODE_NAMES[viewer.environment])}
${testCardsSection()}
<h2 id="console">${T.consoleHeading}</h2>
<p>${T.consoleIntro}</p>
${viewer.environment === 'sandbox' ? ifAllowed(viewer, 'developer_settings', html`<p><a href="/dashboard/developers/console">${T.consoleLink}</a></p>`) : html`<p>${T.consoleLiveOnly}</p>`}`;
  return memberPage(request, reply, { title: T.title, area: 'developers', body, status });
}

function keysSection(request: FastifyRequest, viewer: DashboardViewer, keys: readonly KeyView[]): SafeHtml {
  const rows = (['sandbox', 'production'] as const).map((environment) => {
    const key = keys.find((candidate) => candidate.environment === environment);
    const mode = environment === 'sandbox' ? T.sandbox : T.production;
    if (key) {
      const action = ifAllowed(
        viewer,
        'keys',
        html`<a class="button secondary" href="/dashboard/developers/keys/${environment}/rotate">${T.rotate(MODE_NAMES[environment])}</a>`,
      );
      return html`<tr><th scope="row">${mode}</th><td><code>${key.keyPrefix}</code></td><td><time datetime="${key.rotatedAt.toISOString()}">${utcMinute(key.rotatedAt)}</time></td><td>${action}</td></tr>`;
    }
    return html`<tr><th scope="row">${mode}</th><td colspan="2">${T.noProductionKey} ${viewer.merchantReviewStatus === 'pending_review' ? T.productionPending : ''}</td><td>${
      viewer.merchantReviewStatus === 'approved'
        ? ifAllowed(
            viewer,
            'keys',
            html`<form method="post" action="/dashboard/developers/keys/production/issue">${csrfField(request)}<button type="submit">${T.issueProduction}</button></form>`,
          )
        : ''
    }</td></tr>`;
  });
  return html`<h2 id="keys">${T.keysHeading}</h2>
<p>${T.keysIntro}</p>
<div class="table-wrap"><table>
<caption>${T.keysHeading}</caption>
<thead><tr><th scope="col">${T.columnMode}</th><th scope="col">${T.columnKey}</th><th scope="col">${T.columnRotated}</th><th scope="col">${T.columnAction}</th></tr></thead>
<tbody>${rows}</tbody>
</table></div>`;
}
