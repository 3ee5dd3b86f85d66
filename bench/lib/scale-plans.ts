import pg from 'pg';
import { LIST_COUNT_EXACT_MAX_ROWS } from '../../src/payments/flows/find-payments.ts';
import type { Db } from '../../src/platform/database.ts';
import { paymentListQueries, type PaymentListFilter } from '../../src/payments/store/payment-list-repo.ts';
import type { MerchantScope } from '../../src/payments/store/payments-repo.ts';

export interface ListPlan {
  title: string;
  statement: string;
  plan: string;
}

const BASE_FILTER: PaymentListFilter = {
  createdFrom: null,
  createdBefore: null,
  operationType: null,
  orderNumber: null,
  after: null,
  limit: 20,
  offset: 0,
  countMaxRows: LIST_COUNT_EXACT_MAX_ROWS,
};

// The statements the list handler runs for the measured requests, as the app builds them, with their plans.
export async function explainListQueries(url: string, db: Db, scope: MerchantScope): Promise<ListPlan[]> {
  const cases: [string, PaymentListFilter][] = [
    ['list page 1', BASE_FILTER],
    ['list page 100, pays', { ...BASE_FILTER, operationType: 'pay', offset: 99 * 20 }],
  ];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const plans: ListPlan[] = [];
    for (const [title, filter] of cases) {
      const queries = paymentListQueries(db, scope, filter);
      for (const [part, query] of [
        ['rows', queries.page],
        ['count', queries.total],
      ] as const) {
        const { sql, params } = query.toSQL();
        const result = await client.query<{ 'QUERY PLAN': string }>(`explain (analyze, buffers) ${sql}`, params);
        plans.push({ title: `${title}: ${part}`, statement: sql, plan: result.rows.map((row) => row['QUERY PLAN']).join('\n') });
      }
    }
    return plans;
  } finally {
    await client.end();
  }
}
