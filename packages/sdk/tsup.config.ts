import { defineConfig, type Options } from 'tsup'

const shared = {
  tsconfig: 'tsconfig.build.json',
  format: ['esm'],
  target: 'es2023',
  platform: 'neutral',
  sourcemap: true,
  treeshake: true,
  // Keep `node:crypto` as written: the prefix tells Deno, Bun and bundlers it is a Node built-in.
  removeNodeProtocol: false,
  external: [/^node:/],
} satisfies Options

// The webhooks entry is one source module (src/webhooks/index.ts) built twice: esbuild resolves its
// `#crypto` import through package.json "imports", to Web Crypto under the `default` condition here
// and to node:crypto under the `node` condition in the second build. package.json "exports" then
// picks the build by the same condition; both share one declaration file (dist/webhooks/index.d.ts).
export default defineConfig([
  {
    ...shared,
    entry: {
      index: 'src/index.ts',
      // The wire schemas and their validation helpers (the mock imports them from here).
      'schemas/index': 'src/schemas.ts',
      'webhooks/index': 'src/webhooks/index.ts',
    },
    dts: true,
    splitting: true,
    // The node build below writes into the same folder at the same time: leave its files alone.
    clean: ['!webhooks/node.js', '!webhooks/node.js.map'],
  },
  {
    ...shared,
    entry: { 'webhooks/node': 'src/webhooks/index.ts' },
    esbuildOptions(options) {
      options.conditions = ['node']
    },
    dts: false,
    splitting: false,
    clean: false,
  },
])
