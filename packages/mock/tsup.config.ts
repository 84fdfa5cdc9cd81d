import { defineConfig } from 'tsup'

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    cli: 'src/cli.ts',
    vitest: 'src/vitest.ts',
  },
  tsconfig: 'tsconfig.build.json',
  format: ['esm'],
  target: 'es2023',
  platform: 'node',
  dts: { entry: { index: 'src/index.ts', vitest: 'src/vitest.ts' } },
  sourcemap: true,
  clean: true,
  splitting: true,
  treeshake: true,
})
