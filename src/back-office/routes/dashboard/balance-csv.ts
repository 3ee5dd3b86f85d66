import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { STATEMENT_PAGE_ROWS_MAX, getStatement, type StatementPage } from '../../../ledger/index.ts';
import { currencyExponent } from '../../../platform/lib/currencies.ts';
import { ApiError } from '../../../platform/lib/errors.ts';
import { decimalTextOf } from '../../domain/amount-input.ts';
import { csvLine } from '../../domain/csv.ts';
import { viewerOf } from './guard.ts';
import { currencyParamOf } from './statement-query.ts';

// An export stops here; the last line says so (a bigger one is a job for the ledger's own tools).
const CSV_ENTRIES_MAX = 100_000;

const HEADER = ['date', 'entry', 'payment_token', 'currency', 'available_change', 'hold_change', 'available_after', 'hold_after', 'ledger_transaction'];

// GET /dashboard/balance/statement.csv?currency=USD: the whole statement of one wallet, newest first, streamed in
// pages of STATEMENT_PAGE_ROWS_MAX. Each page after the first starts from the balances the page before ended on,
// so the export reads each entry once (a page of the Balance page recomputes its start instead).
export async function balanceCsv(app: FastifyInstance): Promise<void> {
  const { db } = app.dashboardDeps;
  const currencies = app.payrail.currencies;

  app.get('/balance/statement.csv', async (request, reply) => {
    const viewer = viewerOf(request);
    const currency = requiredCurrency(request.query);
    const scope = { merchantId: viewer.merchantId, environment: viewer.environment };
    // The first page is read before a byte is sent: an unknown currency is still an error page.
    const first = await getStatement(db, currencies, scope, { currency, before: null, rows: STATEMENT_PAGE_ROWS_MAX });
    const exponent = currencyExponent(currencies, currency) ?? 0;
    const amount = (minor: number) => decimalTextOf(minor, exponent);
    const pageText = (page: StatementPage) =>
      page.lines
        .map((line) =>
          csvLine([
            line.createdAt.toISOString(),
            line.kind,
            line.paymentToken,
            currency,
            amount(line.availableMinor),
            amount(line.holdMinor),
            amount(line.availableAfterMinor),
            amount(line.holdAfterMinor),
            line.transactionId,
          ]),
        )
        .join('');
    async function* statementText(): AsyncGenerator<string> {
      yield csvLine(HEADER);
      let page = first;
      let written = 0;
      for (;;) {
        yield pageText(page);
        written += page.lines.length;
        if (page.nextBefore === null) return;
        if (written >= CSV_ENTRIES_MAX) {
          yield csvLine(['', `truncated: the export stops at ${CSV_ENTRIES_MAX} entries`]);
          return;
        }
        page = await getStatement(db, currencies, scope, {
          currency,
          before: page.nextBefore,
          rows: STATEMENT_PAGE_ROWS_MAX,
          balanceAfter: page.balanceBefore,
        });
      }
    }
    const day = new Date().toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="statement-${viewer.environment}-${currency}-${day}.csv"`)
      .send(Readable.from(statementText()));
  });
}

function requiredCurrency(query: unknown): string {
  const currency = currencyParamOf(query);
  if (currency === null) throw new ApiError('invalid_field', 400, 'choose a currency: ?currency=USD');
  return currency;
}
