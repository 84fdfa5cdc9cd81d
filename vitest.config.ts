import { defineConfig } from 'vitest/config'
import { projects as contract } from './packages/contract-tests/vitest.config.ts'
import { projects as mock } from './packages/mock/vitest.config.ts'
import { projects as sdk } from './packages/sdk/vitest.config.ts'

// Every package's tests by level (see each package's vitest.config.ts), and every example:
// `pnpm exec vitest run --project mock:unit` runs one level alone.
export default defineConfig({
  test: {
    projects: [...mock, ...sdk, ...contract, 'examples/*'],
    reporters: ['default', './scripts/vitest-summary-reporter.ts'],
    // More workers than cores: the process and API tests spend much of their time waiting on child
    // processes and sockets; with one worker per core, a core sat idle half the run.
    maxWorkers: 4,
    // Each package's projects set `isolate: false`: one module graph per worker, not per file.
    // Transforming the mock and the SDK again for every file cost about three times the CPU of the
    // tests themselves; a test restores what it changes (fake timers, stubbed globals) in its hooks.
  },
})
