#!/usr/bin/env node
// Writes packages/sdk/openapi.json (published as @reseller-api/sdk/openapi.json): the service's
// OpenAPI 3.1 document, generated from the SDK's own operation declarations, texts and zod schemas
// (packages/sdk/src/openapi/service.ts) with the example answers frozen in
// packages/sdk/openapi/examples.json and the events' example deliveries in webhook-examples.json: `pnpm run openapi:write`. Nothing of the mock is read.
// packages/sdk/test/openapi.test.ts fails when the committed file differs from what the sources build.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { examplesFile, root, webhookExamplesFile, withBundle } from './openapi-bundle.mjs'

const out = join(root, 'packages/sdk/openapi.json')
const examples = JSON.parse(readFileSync(examplesFile, 'utf8'))
const eventExamples = JSON.parse(readFileSync(webhookExamplesFile, 'utf8'))
const document = await withBundle('sdk', 'src/openapi/service.ts', ({ buildServiceDocument }) =>
  buildServiceDocument(examples, { eventExamples }),
)
const json = JSON.stringify(document)
writeFileSync(out, `${json}\n`)
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0)
const deprecated = Object.values(document.paths)
  .flatMap((item) => Object.values(item))
  .filter((operation) => operation.deprecated).length
console.log(
  `OpenAPI ${document.openapi}: ${operations} operations (${deprecated} deprecated), ` +
    `${Object.keys(document.paths).length} paths, ${Object.keys(document.webhooks).length} events, ${Object.keys(document.components.schemas).length} schemas, ` +
    `${(Buffer.byteLength(json) / 1024).toFixed(1)} KiB → packages/sdk/openapi.json`,
)
