import pg from 'pg';

// Bulk loading for `npm run bench:scale`: rows made inside PostgreSQL by INSERT … SELECT generate_series, so
// 10 M payments take minutes. Half go to the measured merchant's sandbox, the rest spread over the other
// scopes (merchants × environments); created_at spreads evenly over SPAN_DAYS ending an hour ago.
const SPAN_DAYS = 730;
const CHUNK_ROWS = 250_000; // one statement each: progress lines, and no transaction holds minutes of work
const LOAD_CONNECTIONS = 2; // the machine's cores
const INDEX_BUILD_MEMORY = '1GB';

export interface Scope {
  merchantId: number;
  environment: 'sandbox' | 'production';
}

export interface LoadPlan {
  measured: Scope;
  others: readonly Scope[];
  rows: number;
  batch: string; // distinguishes the tokens of one load from another's
}

// Row i of a load: status, variant, amount, currency, customer and card vary with i as real traffic would. An
// approved or refunded pay captured its amount; the measured scope's refunded ones count it refunded (scale-ledger.ts
// gives them the refund, and the scope the postings).
function insertStatement(plan: LoadPlan, first: number, last: number, spanEnd: Date): { text: string; values: unknown[] } {
  const scopes = [...plan.others];
  const merchantCase = scopes.map((scope, index) => `when ${index} then ${Number(scope.merchantId)}`).join(' ');
  const environmentCase = scopes.map((scope, index) => `when ${index} then '${scope.environment}'`).join(' ');
  const text = `
    insert into payments (token, merchant_id, environment, operation_type, request_variant, status, product, amount_minor,
      currency, gateway_amount_minor, gateway_currency, callback_url, redirect_success_url, redirect_fail_url,
      order_number, locale, expires_at, card_mask, card_holder, card_expiry_month, card_expiry_year, customer,
      captured_minor, refunded_minor, finalized_at, created_at, updated_at)
    select md5($1 || i::text),
      case when i % 2 = 0 then $2::bigint else (case (i / 2) % ${scopes.length} ${merchantCase} end) end,
      case when i % 2 = 0 then $3::text else (case (i / 2) % ${scopes.length} ${environmentCase} end) end,
      case when (i / 2) % 10 = 3 then 'payout' else 'pay' end,
      case when i % 7 = 0 then 'B' else 'A' end,
      case when (i / 2) % 20 < 15 then 'approved' when (i / 2) % 20 < 18 then 'declined' when (i / 2) % 20 = 18 then 'expired' else 'refunded' end,
      'Order #' || i, 100 + (i * 7919) % 99900, (array['USD','EUR','GBP'])[1 + i % 3], 100 + (i * 7919) % 99900,
      (array['USD','EUR','GBP'])[1 + i % 3], 'https://merchant.example/callback', 'https://merchant.example/ok',
      'https://merchant.example/fail', 'ord-' || $1 || '-' || i, 'en', at + interval '30 minutes',
      case when i % 3 = 0 then '424242******4242' end, case when i % 3 = 0 then 'JANE DOE' end,
      case when i % 3 = 0 then (1 + i % 12)::smallint end, case when i % 3 = 0 then 2030 end,
      case when i % 3 = 0 then jsonb_build_object('email', 'customer' || i || '@example.com', 'firstName', 'Jane', 'lastName', 'Doe',
        'address', '1 Main St', 'country', 'US', 'city', 'Springfield', 'region', null, 'postcode', '12345', 'phone', null,
        'ip', '203.0.113.7', 'browser', null) end,
      case when (i / 2) % 10 <> 3 and ((i / 2) % 20 < 15 or (i / 2) % 20 = 19) then 100 + (i * 7919) % 99900 end,
      case when i % 2 = 0 and (i / 2) % 20 = 19 then 100 + (i * 7919) % 99900 else 0 end,
      at + interval '5 seconds', at, at + interval '5 seconds'
    from generate_series($4::bigint, $5::bigint) as i,
      lateral (select $6::timestamptz - ($8::bigint - i) * ($7::double precision * interval '1 second') as at) as moment`;
  // The load's last row is created at spanEnd, its first SPAN_DAYS before.
  const stepS = (SPAN_DAYS * 86_400) / Math.max(1, plan.rows);
  return { text, values: [plan.batch, plan.measured.merchantId, plan.measured.environment, first, last, spanEnd.toISOString(), stepS, plan.rows] };
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end().catch(() => {});
  }
}

// Inserts plan.rows payments over LOAD_CONNECTIONS connections. With dropIndexes the secondary indexes are
// dropped first and built again afterwards (far faster than maintaining them row by row).
export async function loadPayments(url: string, plan: LoadPlan, options: { dropIndexes: boolean }, print: (line: string) => void): Promise<void> {
  const spanEnd = new Date(Date.now() - 3_600_000);
  const indexes = options.dropIndexes ? await dropSecondaryIndexes(url) : [];
  const chunks: [number, number][] = [];
  for (let first = 1; first <= plan.rows; first += CHUNK_ROWS) chunks.push([first, Math.min(plan.rows, first + CHUNK_ROWS - 1)]);
  let done = 0;
  const started = Date.now();
  await Promise.all(
    Array.from({ length: LOAD_CONNECTIONS }, () =>
      withClient(url, async (client) => {
        await client.query(`set session_replication_role = replica`); // no per-row foreign-key trigger while loading
        for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) {
          const { text, values } = insertStatement(plan, chunk[0], chunk[1], spanEnd);
          await client.query(text, values);
          done += chunk[1] - chunk[0] + 1;
          if (plan.rows >= 1_000_000)
            print(`  ${done.toLocaleString('en')} / ${plan.rows.toLocaleString('en')} rows, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }),
    ),
  );
  if (indexes.length > 0) await buildIndexes(url, indexes, print);
}

async function dropSecondaryIndexes(url: string): Promise<string[]> {
  return withClient(url, async (client) => {
    const found = await client.query<{ name: string; definition: string }>(
      `select i.indexname as name, i.indexdef as definition from pg_indexes i
       where i.schemaname = 'public' and i.tablename = 'payments'
         and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
    );
    for (const index of found.rows) await client.query(`drop index "${index.name}"`);
    return found.rows.map((index) => index.definition);
  });
}

async function buildIndexes(url: string, definitions: string[], print: (line: string) => void): Promise<void> {
  const queue = [...definitions];
  const started = Date.now();
  await Promise.all(
    Array.from({ length: LOAD_CONNECTIONS }, () =>
      withClient(url, async (client) => {
        await client.query(`set maintenance_work_mem = '${INDEX_BUILD_MEMORY}'`);
        await client.query('set max_parallel_maintenance_workers = 0'); // the two connections already use both cores
        for (let definition = queue.shift(); definition; definition = queue.shift()) {
          await client.query(definition);
          print(`  built ${/INDEX (\S+)/.exec(definition)?.[1] ?? 'an index'}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
        }
      }),
    ),
  );
}

// What autovacuum would do in time: statistics for the planner, the visibility map for index-only counts.
export async function settle(url: string): Promise<void> {
  await withClient(url, async (client) => {
    await client.query('vacuum (analyze)'); // payments, and the refunds and ledger rows of scale-ledger.ts
    await client.query('checkpoint');
  });
}
