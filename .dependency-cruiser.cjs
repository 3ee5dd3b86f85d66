// The import rule of ../shared/ARCHITECTURE.md, checked by `npm run lint:deps` (part of `npm test`).
// Route folders → flows → domain; flows → store and the outbound adapter client; domain imports only lib;
// contract (wire types and schemas every layer shares) imports only domain and lib; nothing imports a
// route folder; no cycles. Route folders may name store row types (type-only imports), never call the store.
const ROUTES = '^src/(merchant-api|admin-api|checkout|provider-callbacks|core-banking|card-pages)/';
const ROOTS = '^src/(app|main|app-context)[.]ts$|^src/(runtime|cli)/';

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
    { name: 'no-orphans', severity: 'error', from: { orphan: true, path: '^src/', pathNot: '[.]d[.]ts$|^src/payments/routes/checkout/assets/' }, to: {} },
    {
      name: 'nothing-imports-a-route-folder',
      severity: 'error',
      from: { path: '^src/', pathNot: `${ROUTES}|${ROOTS}` },
      to: { path: ROUTES },
    },
    {
      name: 'route-folders-do-not-import-each-other',
      severity: 'error',
      from: { path: '^src/(merchant-api|admin-api|checkout|provider-callbacks|core-banking|card-pages)/' },
      to: { path: ROUTES, pathNot: '^src/$1/' },
    },
    {
      name: 'routes-reach-the-store-only-through-flows',
      severity: 'error',
      from: { path: ROUTES },
      to: { path: '^src/(store|gateways|workers|sandbox-adapter)/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'domain-imports-only-lib',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: '^src/', pathNot: '^src/(domain|lib)/' },
    },
    {
      name: 'lib-imports-only-lib',
      severity: 'error',
      from: { path: '^src/lib/' },
      to: { path: '^src/', pathNot: '^src/lib/' },
    },
    {
      name: 'contract-imports-only-domain-and-lib',
      severity: 'error',
      from: { path: '^src/contract/' },
      to: { path: '^src/', pathNot: '^src/(contract|domain|lib)/' },
    },
    {
      name: 'store-imports-only-domain-contract-and-lib',
      severity: 'error',
      from: { path: '^src/store/' },
      to: { path: '^src/', pathNot: '^src/(store|domain|contract|lib)/' },
    },
    {
      name: 'gateways-client-imports-only-contract-domain-and-lib',
      severity: 'error',
      from: { path: '^src/gateways/' },
      to: { path: '^src/', pathNot: '^src/(gateways|contract|domain|lib)/' },
    },
    {
      name: 'flows-do-not-reach-entry-points',
      severity: 'error',
      from: { path: '^src/flows/' },
      to: { path: '^src/(workers|runtime|cli|sandbox-adapter)/|^src/(app|main)[.]ts$' },
    },
    {
      name: 'packages-stand-alone',
      severity: 'error',
      comment: 'packages/ are published on their own: they never import the service.',
      from: { path: '^packages/' },
      to: { path: '^src/' },
    },
    {
      name: 'the-sandbox-acquirer-stands-apart',
      severity: 'error',
      comment: 'The sandbox adapter is an adapter like any other: it shares only the wire contract, lib and its own store.',
      from: { path: '^src/sandbox-adapter/' },
      to: { path: '^src/', pathNot: '^src/(sandbox-adapter|contract|domain|lib|store)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    parser: 'swc', // TypeScript 7 has no compiler API yet; swc parses the sources
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
