import type { FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { operatorMay, type OperatorAction } from '../../domain/operator-roles.ts';
import type { OperatorViewer } from '../../flows/operator-sign-in.ts';
import { csrfField, documentShell, sendHtml, type PageScript } from '../../pages/document.ts';

// Every console page in one frame: the shared document shell (pages/document.ts), the console's navigation (only
// what the operator's role may open), one h1.

type OpsArea =
  | 'overview'
  | 'merchants'
  | 'payments'
  | 'disputes'
  | 'conflicts'
  | 'bank-accounts'
  | 'users'
  | 'app-tokens'
  | 'ledger'
  | 'reconciliations'
  | 'audit'
  | 'operators'
  | 'none';

const NAV: readonly { area: OpsArea; href: string; label: string; action: OperatorAction }[] = [
  { area: 'overview', href: '/ops', label: 'Overview', action: 'overview' },
  { area: 'merchants', href: '/ops/merchants', label: 'Merchants', action: 'merchants.read' },
  { area: 'payments', href: '/ops/payments', label: 'Payments', action: 'payments.read' },
  { area: 'disputes', href: '/ops/disputes', label: 'Disputes', action: 'disputes' },
  { area: 'conflicts', href: '/ops/conflicts', label: 'Conflicts', action: 'conflicts' },
  { area: 'bank-accounts', href: '/ops/bank-accounts', label: 'Bank accounts', action: 'bank_accounts' },
  { area: 'users', href: '/ops/users', label: 'Users', action: 'users.read' },
  { area: 'app-tokens', href: '/ops/app-tokens', label: 'App tokens', action: 'app_tokens' },
  { area: 'ledger', href: '/ops/ledger', label: 'Ledger', action: 'ledger' },
  { area: 'reconciliations', href: '/ops/reconciliations', label: 'Reconciliation', action: 'reconciliation' },
  { area: 'audit', href: '/ops/audit', label: 'Audit log', action: 'audit' },
  { area: 'operators', href: '/ops/operators', label: 'Operators', action: 'operators' },
];

export interface OpsPageContent {
  title: string; // the h1 and the <title>
  area: OpsArea;
  body: SafeHtml;
  status?: number;
  scripts?: readonly PageScript[];
}

export function opsPage(request: FastifyRequest, reply: FastifyReply, content: OpsPageContent): FastifyReply {
  const operator = request.operator;
  if (!operator) throw new Error('opsPage without an operator');
  const nav = NAV.filter((item) => operatorMay(operator.role, item.action)).map(
    (item) => html`<li><a href="${item.href}"${item.area === content.area ? html` aria-current="page"` : ''}>${item.label}</a></li>`,
  );
  const inner = html`<header class="top ops">
  <a class="brand" href="/ops">Payrail · Operations</a>
  <form method="post" action="/ops/logout" class="logout">${csrfField(request)}<button type="submit">Log out</button></form>
</header>
<nav aria-label="Console"><ul>${nav}</ul></nav>
<main id="main" tabindex="-1">
<h1>${content.title}</h1>
${content.body}
</main>
<footer><span>${operator.email} · ${operator.role}</span></footer>`;
  return sendHtml(reply, content.status ?? 200, documentShell(content.title, inner, content.scripts ?? [], 'ops'));
}

export function opsPublicPage(reply: FastifyReply, content: { title: string; body: SafeHtml; status?: number }): FastifyReply {
  const inner = html`<header class="top public ops"><a class="brand" href="/ops/login">Payrail · Operations</a></header>
<main id="main" tabindex="-1" class="narrow">
<h1>${content.title}</h1>
${content.body}
</main>`;
  return sendHtml(reply, content.status ?? 200, documentShell(content.title, inner, []));
}

// What a page shows of an action the operator's role may not take: nothing.
export function ifOperatorMay(operator: OperatorViewer, action: OperatorAction, markup: SafeHtml): SafeHtml | '' {
  return operatorMay(operator.role, action) ? markup : '';
}
