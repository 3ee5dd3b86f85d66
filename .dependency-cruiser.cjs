// The import rules of ../shared/ARCHITECTURE.md, checked by `npm run lint:deps` (part of `npm test`).
//
// Modules: payments, ledger, core-banking, back-office (each with routes/ flows/ domain/ store/), the sandbox adapter
// standing apart, platform/ (config, lib, database, runtime) shared by all, workers/ and cli/ as entry points.
// Between modules: only through the other module's index.ts, in one direction (back-office → any module;
// core-banking → payments → ledger; core-banking → ledger); a store may name another module's tables (store/schema.ts:
// one database, its foreign keys).
// Inside a module: routes → flows → domain; flows → store and gateways; domain does no I/O; the store decides
// nothing and calls no flow; nothing but an entry point imports a route folder.
const MODULE = '(payments|ledger|core-banking|back-office)';
const ENTRY_POINTS = '^src/(app|main|app-context)[.]ts$|^src/platform/runtime/|^src/cli/';
const IO_PACKAGES = '^(node:)?(fs|net|http|https|http2|child_process|dgram|dns|tls|worker_threads|cluster)(/|$)|^(pg|drizzle-orm|@electric-sql|undici|amqplib|nodemailer|fastify)(/|$)';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    {
      name: 'no-orphans',
      severity: 'error',
      from: { orphan: true, path: '^src/', pathNot: '[.]d[.]ts$|^src/payments/routes/checkout/assets/|^src/back-office/pages/assets/' },
      to: {},
    },

    // ---- between modules ----
    {
      name: 'modules-meet-only-at-their-index',
      severity: 'error',
      comment: "Another module is reached through its index.ts; a store may name another module's tables (its schema file).",
      from: { path: `^src/${MODULE}/` },
      to: { path: `^src/${MODULE}/`, pathNot: ['^src/$1/', `^src/${MODULE}/index[.]ts$`, `^src/${MODULE}/store/schema[.]ts$`] },
    },
    {
      name: 'only-a-store-names-another-modules-tables',
      severity: 'error',
      from: { path: `^src/${MODULE}/`, pathNot: `^src/${MODULE}/store/` },
      to: { path: `^src/${MODULE}/store/schema[.]ts$`, pathNot: '^src/$1/' },
    },
    {
      name: 'the-ledger-calls-no-module',
      severity: 'error',
      comment: 'payments and core-banking post to the ledger; the ledger knows neither (their tables only, for foreign keys and checks).',
      from: { path: '^src/ledger/' },
      to: { path: '^src/(payments|core-banking)/', pathNot: '^src/(payments|core-banking)/store/schema[.]ts$' },
    },
    {
      name: 'payments-do-not-call-core-banking',
      severity: 'error',
      from: { path: '^src/payments/' },
      to: { path: '^src/core-banking/' },
    },
    {
      name: 'no-module-calls-the-back-office',
      severity: 'error',
      comment: 'The back office (dashboard, console) calls the modules through their index.ts; none of them knows it (entry points and workers reach it at its index).',
      from: { path: '^src/(payments|ledger|core-banking|sandbox-adapter)/' },
      to: { path: '^src/back-office/', pathNot: '^src/back-office/store/schema[.]ts$' },
    },
    {
      name: 'entry-points-meet-modules-at-their-index',
      severity: 'error',
      comment: 'workers, the CLI and start-up call what a module exports; app.ts and start-up also mount its route folders.',
      from: { path: `^src/(workers|cli|platform/runtime)/|^src/(app|main|app-context)[.]ts$` },
      to: { path: `^src/${MODULE}/`, pathNot: [`^src/${MODULE}/index[.]ts$`, `^src/${MODULE}/routes/`] },
    },
    {
      name: 'platform-is-shared-by-all-and-knows-none',
      severity: 'error',
      comment: 'config, lib and the database serve every module and import none (start-up in platform/runtime is an entry point).',
      from: { path: '^src/platform/', pathNot: '^src/platform/runtime/' },
      to: { path: '^src/', pathNot: '^src/platform/' },
    },
    {
      name: 'the-sandbox-acquirer-stands-apart',
      severity: 'error',
      comment: 'The sandbox adapter is an adapter like any other: the kit, platform/lib and its own tables.',
      from: { path: '^src/sandbox-adapter/' },
      to: { path: '^src/', pathNot: '^src/(sandbox-adapter|platform)/' },
    },

    // ---- inside a module ----
    {
      name: 'nothing-imports-a-route-folder',
      severity: 'error',
      from: { path: '^src/', pathNot: `${ENTRY_POINTS}|^src/${MODULE}/routes/` },
      to: { path: `^src/${MODULE}/routes/` },
    },
    {
      name: 'route-folders-do-not-import-each-other',
      severity: 'error',
      from: { path: `^src/${MODULE}/routes/([^/]+)/`, pathNot: '^src/core-banking/routes/(?!admin/|card-pages/)' },
      comment: "core-banking's API features (profiles, bank accounts, …) are one route folder; its admin and card pages are not.",
      to: { path: `^src/${MODULE}/routes/`, pathNot: ['^src/$1/routes/$2/', '^src/core-banking/routes/(?!admin/|card-pages/)'] },
    },
    {
      name: 'routes-reach-the-store-only-through-flows',
      severity: 'error',
      from: { path: `^src/${MODULE}/routes/` },
      to: { path: `^src/${MODULE}/(store|gateways)/`, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-imports-only-domain-and-lib',
      severity: 'error',
      from: { path: `^src/${MODULE}/domain/` },
      to: { path: '^src/', pathNot: [`^src/$1/domain/`, '^src/platform/lib/', `^src/${MODULE}/index[.]ts$`] },
    },
    {
      name: 'domain-does-no-io',
      severity: 'error',
      comment: 'Pure rules: no file system, network, database or framework (node:crypto hashing is pure).',
      from: { path: `^src/${MODULE}/domain/|^src/platform/lib/(currencies|countries|format-amount|card-checks|sandbox-test-cards|status-check-schedule)[.]ts$` },
      to: { path: IO_PACKAGES },
    },
    {
      name: 'the-store-decides-nothing-and-calls-no-flow',
      severity: 'error',
      from: { path: `^src/${MODULE}/store/` },
      to: { path: `^src/${MODULE}/(flows|routes|gateways)/` },
    },
    {
      name: 'flows-get-configuration-passed-in',
      severity: 'error',
      comment: 'A flow receives the settings it needs from its caller; only entry points read the configuration.',
      from: { path: `^src/(${MODULE}|workers)/` },
      to: { path: '^src/platform/config[.]ts$', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'flows-do-not-reach-entry-points',
      severity: 'error',
      from: { path: `^src/${MODULE}/` },
      to: { path: '^src/(workers|cli|platform/runtime|sandbox-adapter)/|^src/(app|main)[.]ts$' },
    },
    {
      name: 'workers-never-touch-a-store',
      severity: 'error',
      comment: 'A worker claims and finishes its work through flows.',
      from: { path: '^src/workers/' },
      to: { path: `^src/${MODULE}/store/|^src/platform/database[.]ts$`, dependencyTypesNot: ['type-only'] },
    },

    // ---- packages ----
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment: 'packages/ are published on their own: they never import the service.',
      from: { path: '^packages/' },
      to: { path: '^src/' },
    },
    {
      name: 'packages-only-through-their-public-exports',
      severity: 'error',
      comment: "The service and other packages use a package's published entry points, never its files.",
      from: { path: '^src/|^packages/([^/]+)/' },
      to: { path: '^packages/([^/]+)/', pathNot: ['^packages/$1/', '^packages/[^/]+/src/(index|conformance/index)[.]ts$'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^packages/[^/]+/dist/' }, // build output (npm run build -w @payrail/adapter-kit), not sources
    tsPreCompilationDeps: true,
    parser: 'swc', // TypeScript 7 has no compiler API yet; swc parses the sources
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['payrail-source', 'import', 'require', 'node', 'default'] },
  },
};
