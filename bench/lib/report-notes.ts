// The prose of `npm run bench`'s RESULTS.md section: what each row measured, and how.

export const BASELINE_NOTE =
  '`baseline` (`bench/baseline-server.ts`), the yardstick of `payrail` (and of the refund and payout rows, for scale ' +
  'only): a bare Fastify 5 HTTPS route validating the body with `CreatePaymentBodyA` ' +
  "through Fastify's own Ajv and running the single `INSERT … RETURNING id, token` Payrail needs, on its own fresh " +
  'database of the same engine; no auth lookup, idempotency, hooks or logging. Each server ran alone, as its own process. ' +
  'CPU columns: CPU time over the measured run divided by requests, for the server process and for all PostgreSQL ' +
  'processes of the machine (so other PostgreSQL clients running at the time would inflate it). ' +
  "Where the difference goes: `node bench/probe.ts` adds Payrail's layers back to the baseline one at a time.";

export const H2H_BASELINE_NOTE =
  '`h2h-baseline` (`bench/h2h-baseline-server.ts`), the yardstick of `payrail-h2h` since issue 24 (the one-INSERT ' +
  '`baseline` does a third of the work; the 0.25 target against it is withdrawn): a bare Fastify 5 HTTPS server with ' +
  "Payrail's certificate and server timeouts, no auth lookup, idempotency, hooks or logging, doing exactly the I/O an " +
  'approved Host-to-Host payment needs, on its own fresh database of the same engine whose `payments`, `outbox` and ' +
  "`sandbox_transactions` have Payrail's columns, checks and indexes: (1) the body validated with Payrail's " +
  "`CreatePaymentBodyA` by Fastify's Ajv; (2) one statement, one commit: the payment inserted `pending` with its " +
  'status-check outbox row; (3) an HTTPS POST over an undici keep-alive pool to `/adapter/pay` on the same process, ' +
  "which validates its body with the adapter kit's pay schema, inserts one sandbox transaction row (one commit) and " +
  'answers `{ "result": true, "status": "approved", "gateway_token": … }`; (4) one statement, one commit: the payment ' +
  '`approved`, its status-check row closed, one notification outbox row queued; (5) the payment answered as JSON in ' +
  "Payrail's create response shape. A loop in the same process claims up to 50 due notification rows with " +
  '`FOR UPDATE SKIP LOCKED` (one statement), POSTs each to the receiver over HTTP side by side, and marks the batch ' +
  "(one statement); at once again after a full batch, else after Payrail's worker poll interval. It signs nothing " +
  '(no X-SIGNATURE, no notification signature) and writes no log, history or attempt rows.';

export const H2H_NOTE =
  '`payrail-h2h` is a whole approved card payment per request, measured against `h2h-baseline`, which does the same ' +
  "I/O and nothing else: its ratio is Payrail's cost beyond that I/O. Per payment: validation " +
  'of the body with card and customer; one statement inserting the payment already `pending` (its gateway resolved ' +
  'first) with its status-check outbox row; an HTTPS call to the sandbox adapter (in the same process, reached at ' +
  '`https://localhost:<port>/sandbox-adapter` over a keep-alive pool, so the server also verifies, parses, validates and ' +
  'answers that second request, and the sandbox records its transaction with one statement); one statement applying ' +
  'the answer while the payment is still pending: `approved`, the log rows, the status check closed, the notification ' +
  "outbox row queued. Three SQL statements on the request path, all prepared (fifteen before: Payrail's twelve with " +
  "BEGIN/COMMIT, and the sandbox's three). " +
  'The in-process worker then delivers the notifications to a local receiver (`http://127.0.0.1`, answering 200), ' +
  'competing for the same CPU: one statement claims a batch with each payment and its sealed merchant key, one records ' +
  "the batch's attempts with their outbox rows; `notified %` is the notifications received during the measured run per " +
  'approved payment of that run (target ≥ 95 % for `payrail-h2h`). The load ' +
  'counts a non-2xx answer, no answer within 30 s, or a `payment.status` other than `approved` as a failure. The bench ' +
  'sets `PAYRAIL_ALLOW_PRIVATE_CALLBACKS=true` (the receiver is on 127.0.0.1) and raises the per-key and per-address ' +
  'rate limits above the load (they still count every request).';

export const MONEY_NOTE =
  '`payrail-refund`: `POST /api/v1/refunds` refunding 100 minor units of one of 400 approved payments of 1,000,000 in ' +
  'turn (seeded before the warm-up through Host-to-Host sandbox payments); each refund locks its payment, reserves ' +
  'amount and commission from the balance, calls the sandbox `/refund` over HTTPS and records the answer with its ' +
  'ledger posting and notification; an answer other than `refund.status` approved counts as a failure. ' +
  '`payrail-payout`: `POST /api/v1/payouts` of 100 minor units to the sandbox payout card 5555 5555 5555 4444 from a ' +
  'balance seeded by 40 approved payments; each payout reserves from `available` (refused if not there), calls the ' +
  'sandbox `/payout` and posts the hold to the payout account; an answer other than `payment.status` approved is a failure.';
