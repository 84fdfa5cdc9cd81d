import { defineConfig } from 'tsup'

export default defineConfig([
  {
    entry: {
      // Browsers and edge runtimes: no node: import anywhere in its graph (`mock.listen()` rejects).
      index: 'src/index.ts',
      // Node, Deno, Bun (`node` export condition): the same, with `mock.listen()` over node:http.
      node: 'src/node.ts',
      cli: 'src/cli.ts',
      // The vitest fixtures (`@reseller-api/mock/vitest`): Node only.
      vitest: 'src/vitest.ts',
    },
    tsconfig: 'tsconfig.build.json',
    format: ['esm'],
    target: 'es2023',
    platform: 'node',
    dts: { entry: { index: 'src/index.ts', node: 'src/node.ts', vitest: 'src/vitest.ts' } },
    sourcemap: true,
    // Not dist/inspector/: the second build below writes it at the same time.
    clean: ['*.js', '*.js.map', '*.d.ts'],
    splitting: true,
    treeshake: true,
    // Keep `node:http` as written: a bundler then knows it for a Node built-in, and Deno and
    // workerd's nodejs_compat only accept the prefixed form.
    removeNodeProtocol: false,
    external: [/^node:/],
    // The OpenAPI document (GET /__mock/openapi.json) is inlined into a lazily loaded chunk.
    // `@msw/data` is inlined too: `mock.db` uses its `Query` alone, and the package's entry loads
    // all of es-toolkit (over 500 modules) on import, which every mock and every CLI start paid.
    noExternal: ['@reseller-api/sdk/openapi.json', '@msw/data'],
  },
  {
    // The inspector's page script and style, served by the standalone server from dist/inspector/.
    entry: { 'inspector/app': 'src/inspector/app.ts' },
    tsconfig: 'tsconfig.build.json',
    format: ['esm'],
    target: 'es2022',
    platform: 'browser',
    minify: true,
    sourcemap: false,
    clean: false,
    splitting: false,
    dts: false,
  },
])
