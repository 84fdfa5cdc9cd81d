#!/usr/bin/env node
// `pnpm run openapi:examples`: runs every operation's example request, as the documents state it,
// on a demo mock (packages/mock/src/openapi/capture.ts) and freezes the answers: the service's in
// packages/sdk/openapi/examples.json (then packages/sdk/openapi.json is written again with them),
// the control endpoints' in packages/mock/src/openapi/control-examples.json, and one delivery of
// every event (the document's `webhooks`) in packages/sdk/openapi/webhook-examples.json. Run it after changing
// an example request or what the mock answers; packages/mock/test/api/openapi-examples.test.ts
// fails, naming the operation, until the files agree.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  controlExamplesFile,
  examplesFile,
  root,
  webhookExamplesFile,
  withBundle,
} from './openapi-bundle.mjs'

const serviceDocument = (examples, eventExamples) =>
  withBundle('sdk', 'src/openapi/service.ts', ({ buildServiceDocument }) =>
    buildServiceDocument(examples, { eventExamples }),
  )
const write = (file, value) => {
  writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`)
  // In the repository's own format, so that `pnpm run lint` passes on the file as written.
  execFileSync(join(root, 'node_modules/.bin/biome'), ['format', '--write', file], { stdio: 'ignore' })
}

// The requests are the document's: build it (with whatever answers were frozen), capture, rebuild.
const read = (file) => JSON.parse(readFileSync(file, 'utf8'))
const before = await serviceDocument(read(examplesFile), read(webhookExamplesFile))
const { service, control } = await withBundle('mock', 'src/openapi/capture.ts', async (capture) => ({
  service: await capture.captureServiceExamples(before),
  control: await capture.captureControlExamples(before),
}))
// The events' deliveries, each event sent once by a demo mock (packages/mock/src/openapi/capture-events.ts).
const events = await withBundle('mock', 'src/openapi/capture-events.ts', (capture) =>
  capture.captureEventExamples(),
)
write(examplesFile, service)
write(controlExamplesFile, control)
write(webhookExamplesFile, events)
const document = await serviceDocument(service, events)
writeFileSync(join(root, 'packages/sdk/openapi.json'), `${JSON.stringify(document)}\n`)
console.log(
  `${Object.keys(service).length} service example answers → packages/sdk/openapi/examples.json, ` +
    `${Object.keys(control).length} control ones → packages/mock/src/openapi/control-examples.json, ` +
    `${Object.keys(events).length} event deliveries → packages/sdk/openapi/webhook-examples.json; ` +
    'packages/sdk/openapi.json written',
)
// The examples' mock may hold timers (webhook retries): the files are written, stop here.
process.exit(0)
