import type { Db } from '../../platform/database.ts';
import { ledgerExportPage, type LedgerExportRow, type LedgerExportScope } from '../store/ledger-export-repo.ts';

export type { LedgerExportRow, LedgerExportScope };

// A merchant's ledger entries of a period, page by page (the caller writes one before the next is read): any number
// of entries in bounded memory.
export async function* walkLedgerEntries(db: Db, scope: LedgerExportScope, pageRows: number): AsyncGenerator<LedgerExportRow[]> {
  let after = { transactionId: 0, entryId: 0 };
  for (;;) {
    const page = await ledgerExportPage(db, scope, after, pageRows);
    if (page.length > 0) yield page;
    const last = page.at(-1);
    if (!last || page.length < pageRows) return;
    after = { transactionId: last.transactionId, entryId: last.entryId };
  }
}
