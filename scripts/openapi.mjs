#!/usr/bin/env node
// Writes packages/sdk/openapi.json (published as @reseller-api/sdk/openapi.json), the OpenAPI 3.1
// document generated from the SDK's zod schemas, the mock's route table and the example answers
// frozen in packages/sdk/openapi/examples.json: `pnpm run openapi:write`. The file is committed, so
// the SDK's own build reads nothing of the mock; packages/mock/test/api/openapi-wire.test.ts fails
// when it differs from what the sources build. It runs no mock: the examples change only through
// `pnpm run openapi:examples` (scripts/openapi-examples.mjs).
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { examplesFile, root, withOpenApiBuild } from './openapi-bundle.mjs'

const out = join(root, 'packages/sdk/openapi.json')
const examples = JSON.parse(readFileSync(examplesFile, 'utf8'))
const document = await withOpenApiBuild(({ buildOpenApi }) => buildOpenApi(examples))
const json = JSON.stringify(document)
writeFileSync(out, `${json}\n`)
const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0)
const deprecated = Object.values(document.paths)
  .flatMap((item) => Object.values(item))
  .filter((operation) => operation.deprecated).length
console.log(
  `OpenAPI ${document.openapi}: ${operations} operations (${deprecated} deprecated), ` +
    `${Object.keys(document.paths).length} paths, ${Object.keys(document.components.schemas).length} schemas, ` +
    `${(Buffer.byteLength(json) / 1024).toFixed(1)} KiB → packages/sdk/openapi.json`,
)
