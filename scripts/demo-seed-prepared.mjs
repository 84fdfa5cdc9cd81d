// Writes packages/mock/dist/demo-seed.json: the built-in demo seed prepared (`prepareSeed` of
// packages/mock/src/seed/prepared.ts, under the default random seed), which the standalone server
// takes at start instead of preparing it (packages/mock/src/server/seed/prebuilt.ts); the single
// executable carries it as an asset (scripts/build-binary.mjs). Part of the mock's build (after tsup):
//   node ../../scripts/demo-seed-prepared.mjs   (in packages/mock)
// The mock's own sources are bundled (esbuild) and run here: the very code a start would run.
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const mockDir = join(dirname(fileURLToPath(import.meta.url)), '../packages/mock')
const entry = `
import { demoSeed } from './src/seed/demo.ts'
import { prepareSeed } from './src/seed/prepared.ts'
import { DEFAULT_RANDOM_SEED } from './src/state/random.ts'
export const prebuilt = {
  input: JSON.stringify(demoSeed),
  randomSeed: DEFAULT_RANDOM_SEED,
  prepared: prepareSeed(demoSeed, DEFAULT_RANDOM_SEED),
}
`
const result = await build({
  stdin: { contents: entry, resolveDir: mockDir, loader: 'ts' },
  tsconfig: join(mockDir, 'tsconfig.build.json'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  write: false,
  logLevel: 'error',
})
const code = result.outputFiles[0].text
const { prebuilt } = await import(`data:text/javascript;base64,${Buffer.from(code).toString('base64')}`)
mkdirSync(join(mockDir, 'dist'), { recursive: true })
writeFileSync(join(mockDir, 'dist/demo-seed.json'), JSON.stringify(prebuilt))
