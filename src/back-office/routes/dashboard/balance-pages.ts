import type { FastifyInstance } from 'fastify';
import { getBalance, getStatement, type StatementLine, type StatementPage, type WalletAmounts } from '../../../ledger/index.ts';
import type { CurrencyTable } from '../../../platform/lib/currencies.ts';
import { html, type SafeHtml } from '../../../platform/lib/html.ts';
import { amountText, utcMinute } from '../../pages/amount-text.ts';
import { viewerOf } from './guard.ts';
import { memberPage } from './layout.ts';
import { STATEMENT_ROWS_DEFAULT, statementHref, statementParamsOf, type StatementParams } from './statement-query.ts';
import { balanceTexts as T } from './texts-balance.ts';

type Wallet = WalletAmounts & { currency: string };

// Balance: each wallet's available and hold (the merchant API's GET /api/v1/balance flow), and one currency's
// statement in keyset pages, in the viewer's merchant and mode only.
export async function balancePages(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const currencies = app.payrail.currencies;

  app.get('/balance', async (request, reply) => {
    const viewer = viewerOf(request);
    const scope = { merchantId: viewer.merchantId, environment: viewer.environment };
    const params = statementParamsOf(request.query);
    const balance = await getBalance(db, currencies, scope, null);
    const wallets: Wallet[] = 'wallets' in balance ? balance.wallets : [balance.wallet];
    const currency = params.currency ?? wallets[0]?.currency ?? null;
    const statement = currency === null ? null : await getStatement(db, currencies, scope, { currency, before: params.before, rows: params.rows });
    const body = html`${walletsSection(currencies, wallets)}
${statement === null ? '' : statementSection(currencies, wallets, statement, params)}`;
    return memberPage(request, reply, { title: T.title, area: 'balance', body });
  });
}

function walletsSection(currencies: CurrencyTable, wallets: readonly Wallet[]): SafeHtml {
  if (wallets.length === 0) return html`<h2>${T.walletsHeading}</h2><p>${T.noWallets}</p>`;
  const cards = wallets.map(
    (wallet) => html`<div class="card">
  <h3>${wallet.currency}</h3>
  <dl class="facts">
    <dt>${T.available}</dt><dd class="figure">${amountText(currencies, wallet.available, wallet.currency)}</dd>
    <dt>${T.hold}</dt><dd>${amountText(currencies, wallet.hold, wallet.currency)}</dd>
  </dl>
  <a href="${statementHref(wallet.currency, null, STATEMENT_ROWS_DEFAULT)}" aria-label="${T.statementHeading} ${wallet.currency}">${T.statementHeading}</a>
</div>`,
  );
  return html`<h2>${T.walletsHeading}</h2>
<div class="cards">${cards}</div>
<p class="note">${T.available}: ${T.availableHelp} ${T.hold}: ${T.holdHelp}</p>`;
}

function statementSection(currencies: CurrencyTable, wallets: readonly Wallet[], statement: StatementPage, params: StatementParams): SafeHtml {
  const { currency } = statement;
  const choices = wallets.some((wallet) => wallet.currency === currency)
    ? wallets.map((wallet) => wallet.currency)
    : [currency, ...wallets.map((w) => w.currency)];
  const money = (minor: number) => amountText(currencies, minor, currency);
  const csvHref = `/dashboard/balance/statement.csv?${new URLSearchParams({ currency }).toString()}`;
  const table =
    statement.lines.length === 0
      ? html`<p>${T.noLines}</p>`
      : html`<div class="table-wrap"><table>
<caption>${T.caption(currency)}</caption>
<thead><tr>
  <th scope="col">${T.columnDate}</th><th scope="col">${T.columnKind}</th><th scope="col">${T.columnPayment}</th>
  <th scope="col" class="num">${T.columnAvailable}</th><th scope="col" class="num">${T.columnHold}</th>
  <th scope="col" class="num">${T.columnAvailableAfter}</th><th scope="col" class="num">${T.columnHoldAfter}</th>
</tr></thead>
<tbody>${statement.lines.map((line) => statementRow(line, money))}</tbody>
</table></div>`;
  const pages = [
    params.before === null ? '' : html`<a href="${statementHref(currency, null, params.rows)}">${T.newestPage}</a>`,
    statement.nextBefore === null ? '' : html`<a href="${statementHref(currency, statement.nextBefore, params.rows)}" rel="next">${T.olderPage}</a>`,
  ];
  return html`<h2 id="statement">${T.statementHeading}</h2>
<p>${T.statementIntro}</p>
<form method="get" action="/dashboard/balance" class="inline">
  <label for="statement-currency">${T.currencyLabel}</label>
  <select id="statement-currency" name="currency">${choices.map((code) => html`<option value="${code}"${code === currency ? html` selected` : ''}>${code}</option>`)}</select>
  <button type="submit" class="secondary">${T.show}</button>
</form>
<p><a href="${csvHref}" download>${T.exportCsv}</a></p>
${table}
<nav aria-label="${T.statementHeading}" class="pages">${pages}</nav>`;
}

function statementRow(line: StatementLine, money: (minor: number) => string): SafeHtml {
  const payment = line.paymentToken === null ? '' : html`<a href="/dashboard/payments/${line.paymentToken}">${line.paymentToken.slice(0, 12)}…</a>`;
  return html`<tr>
  <td><time datetime="${line.createdAt.toISOString()}">${utcMinute(line.createdAt)}</time></td>
  <td>${kindLabel(line.kind)}</td>
  <td>${payment}</td>
  <td class="num">${line.availableMinor === 0 ? '' : money(line.availableMinor)}</td>
  <td class="num">${line.holdMinor === 0 ? '' : money(line.holdMinor)}</td>
  <td class="num">${money(line.availableAfterMinor)}</td>
  <td class="num">${money(line.holdAfterMinor)}</td>
</tr>`;
}

// payment_captured → "Payment captured"
function kindLabel(kind: string): string {
  const words = kind.replaceAll('_', ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
