// The layers of the two packages (packages/mock/src/ARCHITECTURE.md, "Layers"), checked by
// packages/mock/test/unit/architecture.test.ts. Type-only imports count (tsPreCompilationDeps):
// a type cycle or a type import across a layer couples the modules all the same.

const { builtinModules } = require('node:module')

const MOCK = '^packages/mock/src'
/** Node's built-in modules, as dependency-cruiser names them (`http`, `fs/promises`: no `node:`). */
const NODE_BUILTIN = `^(node:)?(${builtinModules.filter((name) => !name.startsWith('_')).join('|')})$`
/** The mock's layers above domain/ and state/: what those two may never import. */
const UPPER = `${MOCK}/(routing|handlers|server|webhooks|inspector|cli)/|${MOCK}/(cli|context|mock-api|create-mock-api|controls|node|index|vitest)\\.ts$`

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'No import cycle, type-only imports included, in either package.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-and-state-stay-below',
      comment:
        'domain/ and state/ import nothing from routing, handlers, server, webhooks, the inspector, the CLI or the wiring above them.',
      severity: 'error',
      from: { path: `${MOCK}/(domain|state)/` },
      to: { path: UPPER },
    },
    {
      name: 'control-declarations-and-client-stand-alone',
      comment:
        "control/ (the control endpoints' declarations and the control client) names schemas and nothing of the running mock: the CLI and tests load the client without the mock, and the handlers bind to the declarations from above.",
      severity: 'error',
      from: { path: `${MOCK}/control/` },
      to: { path: `${UPPER}|${MOCK}/openapi/` },
    },
    {
      name: 'control-client-has-no-node-builtin',
      comment: 'The control client speaks fetch only: it runs wherever fetch does (Node, browsers, Workers).',
      severity: 'error',
      from: { path: `${MOCK}/control/` },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'default-entry-has-no-node-builtin',
      comment:
        'src/index.ts is the browser and Workers entry: nothing it imports at run time, directly or not, imports a node: module.',
      severity: 'error',
      from: { path: `${MOCK}/index\\.ts$` },
      to: { path: NODE_BUILTIN, reachable: true },
    },
    {
      name: 'sdk-independent-of-the-mock',
      comment: 'The SDK imports nothing from the mock: the package graph is mock -> sdk only.',
      severity: 'error',
      from: { path: '^packages/sdk/src' },
      to: { path: '^packages/mock/|@reseller-api/mock' },
    },
    {
      name: 'sdk-schemas-are-the-bottom-layer',
      comment:
        "The SDK's schemas (src/schemas/) import nothing else of the SDK: core/, operations/, resources/, the OpenAPI generator and the entries are built on them, never under them. The @reseller-api/sdk/schemas entry, which also re-exports the declarations for the mock, is src/schemas.ts, outside the layer.",
      severity: 'error',
      from: { path: '^packages/sdk/src/schemas/' },
      to: { path: '^packages/sdk/src/', pathNot: '^packages/sdk/src/schemas/' },
    },
    {
      name: 'sdk-client-without-the-document-generator',
      comment:
        "The SDK's runtime entries reach nothing of the OpenAPI generator but its types: the document's texts and the generator stay out of the client and webhooks bundles (the operation declarations carry no text).",
      severity: 'error',
      from: { path: '^packages/sdk/src/(index|client|webhooks/index)\\.ts$' },
      to: { path: '^packages/sdk/src/openapi/(?!spec\\.ts$)', reachable: true },
    },
    {
      name: 'operation-texts-read-by-the-generator-only',
      comment:
        "src/openapi/service.ts reads the operations' texts: no module of either package imports it (the build script and the tests do).",
      severity: 'error',
      from: { path: '^packages/(sdk|mock)/src' },
      to: { path: '^packages/sdk/src/openapi/service\\.ts$' },
    },
    {
      name: 'mock-openapi-sources-stay-out-of-the-request-path',
      comment:
        "The mock's OpenAPI sources (texts, capture, coverage) are read by its tests and build scripts; of the running mock, only the lazily imported document of GET /__mock/openapi.json (openapi/served.ts) is.",
      severity: 'error',
      from: { path: `${MOCK}/`, pathNot: `${MOCK}/(openapi/|handlers/openapi\\.ts$)` },
      to: { path: `${MOCK}/openapi/` },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'packages/mock/tsconfig.json' },
    // Reached, not followed: an import of a built package (`@reseller-api/mock` resolves to its
    // dist/) still shows as a dependency, so the rules see it.
    doNotFollow: { path: ['node_modules', '(^|/)dist/'] },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'types', 'default'] },
  },
}
