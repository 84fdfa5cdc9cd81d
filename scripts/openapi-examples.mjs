#!/usr/bin/env node
// `pnpm run openapi:examples`: runs every operation's example request on a demo mock
// (packages/mock/src/openapi/examples.ts) and freezes the answers in packages/sdk/openapi/examples.json,
// which the SDK's build reads. Run it after changing an example request or what the mock answers;
// packages/mock/test/api/openapi.test.ts fails, naming the operation, until the file agrees.
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { examplesFile, root, withOpenApiBuild } from './openapi-bundle.mjs'

const examples = await withOpenApiBuild(({ captureAllExamples }) => captureAllExamples())
mkdirSync(dirname(examplesFile), { recursive: true })
writeFileSync(examplesFile, `${JSON.stringify(examples, null, 2)}\n`)
// In the repository's own format, so that `pnpm run lint` passes on the file as written.
execFileSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', examplesFile], { stdio: 'ignore' })
console.log(`${Object.keys(examples).length} example answers → packages/sdk/openapi/examples.json`)
// The examples' mock may hold timers (webhook retries): the file is written, stop here.
process.exit(0)
