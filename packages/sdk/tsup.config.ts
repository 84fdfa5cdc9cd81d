import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    // The wire schemas and their validation helpers (the mock imports them from here).
    'schemas/index': 'src/schemas/index.ts',
    // Webhooks: one shared core, two thin entries chosen by `exports` conditions (package.json).
    'webhooks/index': 'src/webhooks/index.ts',
    'webhooks/node': 'src/webhooks/node.ts',
  },
  tsconfig: 'tsconfig.build.json',
  format: ['esm'],
  target: 'es2023',
  platform: 'neutral',
  dts: true,
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
  // Keep `node:crypto` as written: the prefix tells Deno, Bun and bundlers it is a Node built-in.
  removeNodeProtocol: false,
  external: [/^node:/],
})
