#!/usr/bin/env node
// The OpenAPI documents read by tools nobody here wrote (CI, .ci/run; `pnpm run openapi-check`):
// - the published one (packages/sdk/openapi.json, `@reseller-api/sdk/openapi.json`) and the one
//   the built mock serves at `GET /__mock/openapi.json` (control endpoints added);
// - each linted by Redocly CLI (`recommended`, redocly.yaml) and Spectral (`spectral:oas`,
//   .spectral.yaml): 0 errors, or the check fails;
// - every schema in each (components, parameters, request bodies, answers) compiled by Ajv in strict
//   mode (`new Ajv2020({ strict: true })` with ajv-formats), as a response validator would;
// - every example (parameters, request bodies, answers) checked against the schema beside it, the
//   events' (`webhooks`: delivery headers and bodies) included.
// The response validator over the answers the integration tests see is the drift test (docs/openapi.md).
//
// Needs `pnpm build` first. Exit code 1 on any finding.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020 } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'

const root = fileURLToPath(new URL('..', import.meta.url))
const publishedPath = join(root, 'packages/sdk/openapi.json')
const mockEntry = join(root, 'packages/mock/dist/node.js')
for (const path of [publishedPath, mockEntry]) {
  if (!existsSync(path)) {
    console.error(`openapi-check: ${path} is missing (run pnpm build first)`)
    process.exit(1)
  }
}

/** The document the built mock serves, as a client of `GET /__mock/openapi.json` reads it. */
async function servedDocument() {
  const { createMockApi } = await import(mockEntry)
  const mock = createMockApi()
  try {
    const response = await mock.fetch(`${mock.baseUrl}/__mock/openapi.json`)
    if (response.status !== 200) throw new Error(`GET /__mock/openapi.json answered ${response.status}`)
    return await response.json()
  } finally {
    mock.reset()
  }
}

const documents = [
  {
    name: 'published (@reseller-api/sdk/openapi.json)',
    document: JSON.parse(readFileSync(publishedPath, 'utf8')),
  },
  { name: 'served (GET /__mock/openapi.json)', document: await servedDocument() },
]

const dir = mkdtempSync(join(tmpdir(), 'openapi-check-'))
let failures = 0
const fail = (message) => {
  failures++
  console.error(`  ✗ ${message}`)
}

/** Runs a CLI of node_modules/.bin; its output is shown, its exit code returned. */
function tool(name, args) {
  const result = spawnSync(join(root, 'node_modules/.bin', name), args, { cwd: root, encoding: 'utf8' })
  const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
    .split('\n')
    .filter((line) => !line.startsWith('npm warn'))
    .join('\n')
    .trim()
  return { status: result.status, output }
}

/** Every schema of the document with where it is, refs left as they are. */
function* schemasOf(document) {
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
    yield { where: `components.schemas.${name}`, schema }
  // The events (`webhooks`, OpenAPI 3.1) are operations too: their headers and bodies, with examples.
  const items = [
    ...Object.entries(document.paths ?? {}),
    ...Object.entries(document.webhooks ?? {}).map(([key, item]) => [`webhook ${key}`, item]),
  ]
  for (const [path, item] of items) {
    for (const [method, operation] of Object.entries(item)) {
      const at = `${method.toUpperCase()} ${path}`
      for (const parameter of operation.parameters ?? [])
        yield {
          where: `${at} parameter ${parameter.name}`,
          schema: parameter.schema,
          example: parameter.example,
          // The example requests' values (scripts/prism-check.mjs sends them): checked like the others.
          hasExample: 'example' in parameter,
        }
      for (const [media, content] of Object.entries(operation.requestBody?.content ?? {}))
        yield {
          where: `${at} request ${media}`,
          schema: content.schema,
          example: content.example,
          hasExample: 'example' in content,
        }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        for (const [media, content] of Object.entries(response.content ?? {})) {
          yield {
            where: `${at} → ${status} ${media}`,
            schema: content.schema,
            example: content.example,
            hasExample: 'example' in content,
            answer: true,
          }
        }
      }
    }
  }
}

const BASE = 'https://reseller.test/schemas/'
/** `#/components/schemas/X` → an absolute id Ajv knows. */
const absolute = (schema) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}`))

/** Ajv strict: compiles every schema; checks each example against its schema. */
function strictCompile(document) {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  addFormats(ajv)
  let count = 0
  try {
    for (const [name, schema] of Object.entries(document.components?.schemas ?? {}))
      ajv.addSchema(absolute(schema), `${BASE}${name}`)
  } catch (error) {
    fail(`Ajv strict: components: ${error.message}`)
    return
  }
  for (const { where, schema, example, hasExample, answer } of schemasOf(document)) {
    if (!schema) continue
    let validate
    try {
      validate = where.startsWith('components.')
        ? ajv.getSchema(`${BASE}${where.slice(18)}`)
        : ajv.compile(absolute(schema))
      count++
    } catch (error) {
      fail(`Ajv strict: ${where}: ${error.message}`)
      continue
    }
    if (answer && !hasExample && where.includes('application/json')) fail(`${where}: no example`)
    if (hasExample && !validate(example))
      fail(`${where}: the example does not conform: ${ajv.errorsText(validate.errors)}`)
  }
  console.log(`  Ajv 2020-12 strict: ${count} schemas compiled`)
}

for (const { name, document } of documents) {
  console.log(
    `\n==> ${name}: OpenAPI ${document.openapi}, ${Object.keys(document.paths).length} paths, ` +
      `${Object.keys(document.webhooks ?? {}).length} events`,
  )
  if (Object.keys(document.webhooks ?? {}).length === 0) fail(`${name}: no events under webhooks`)
  const file = join(dir, `${name.split(' ')[0]}.json`)
  writeFileSync(file, JSON.stringify(document, null, 2))

  const redocly = tool('redocly', [
    'lint',
    '--config',
    join(root, 'redocly.yaml'),
    '--format',
    'summary',
    file,
  ])
  console.log(redocly.output.replace(/^/gm, '  '))
  if (redocly.status !== 0) fail('Redocly lint (recommended) reports errors')

  const spectral = tool('spectral', [
    'lint',
    '--ruleset',
    join(root, '.spectral.yaml'),
    '--fail-severity',
    'error',
    '--display-only-failures',
    file,
  ])
  console.log(spectral.output.replace(/^/gm, '  ') || '  Spectral (spectral:oas): no errors')
  if (spectral.status !== 0) fail('Spectral (spectral:oas) reports errors')

  strictCompile(document)
}

rmSync(dir, { recursive: true, force: true })
if (failures > 0) {
  console.error(`\nopenapi-check: ${failures} finding(s)`)
  process.exit(1)
}
console.log('\nopenapi-check: both documents pass Redocly, Spectral and Ajv strict')
