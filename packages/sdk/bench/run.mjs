// Runs every `*.bench.mjs` beside this file, one process each, so one benchmark's
// garbage and JIT state never skew another's. Benchmarks import the built `dist/`.
import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const here = dirname(fileURLToPath(import.meta.url))
const only = process.argv[2]
const files = readdirSync(here)
  .filter((f) => f.endsWith('.bench.mjs') && (!only || f.includes(only)))
  .sort()
let failed = 0
for (const file of files) {
  console.log(`\n## ${file}`)
  const run = spawnSync(process.execPath, ['--expose-gc', join(here, file)], { stdio: 'inherit' })
  if (run.status !== 0) failed++
}
process.exit(failed ? 1 : 0)
