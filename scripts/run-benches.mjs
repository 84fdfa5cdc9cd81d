// Runs every `*.bench.mjs` in the calling package's `bench/` folder, one process each, so one
// benchmark's garbage and JIT state never skew another's. Benchmarks import the built `dist/`.
// Usage (from a package): node ../../scripts/run-benches.mjs [name-filter]
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'

const benchDir = join(process.cwd(), 'bench')
const only = process.argv[2]
const files = readdirSync(benchDir)
  .filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only)))
  .sort()
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  const run = spawnSync(process.execPath, ['--expose-gc', join(benchDir, file)], { stdio: 'inherit' })
  if (run.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
