#!/usr/bin/env node
// Writes packages/sdk/dist/openapi.json (published as @reseller-api/sdk/openapi.json), the OpenAPI 3.1
// document generated from the SDK's zod schemas and the mock's route table. Run by the SDK's build,
// after tsup: the mock is not built yet, so its source is bundled here with esbuild; its imports of
// `@reseller-api/sdk` (kept external, like every dependency) load the SDK just built.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

const root = fileURLToPath(new URL('..', import.meta.url))
const out = join(root, 'packages/sdk/dist/openapi.json')
// Inside the mock package, so that the bundle's imports of its dependencies resolve from there.
const cache = join(root, 'packages/mock/node_modules/.cache')
mkdirSync(cache, { recursive: true })
const dir = mkdtempSync(join(cache, 'openapi-'))
try {
  const entry = join(dir, 'build.mjs')
  await build({
    entryPoints: [join(root, 'packages/mock/src/openapi/build.ts')],
    outfile: entry,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Not tsconfig.json: its `paths` aim at the SDK's source, which must not be bundled twice.
    tsconfig: join(root, 'packages/mock/tsconfig.build.json'),
    logLevel: 'warning',
    // Dependencies (the SDK included) load from the mock's node_modules; the mock's source is bundled.
    packages: 'external',
  })
  const { buildOpenApi } = await import(pathToFileURL(entry).href)
  const document = await buildOpenApi()
  const json = JSON.stringify(document)
  writeFileSync(out, json)
  const operations = Object.values(document.paths).reduce((n, item) => n + Object.keys(item).length, 0)
  const deprecated = Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .filter((operation) => operation.deprecated).length
  console.log(
    `OpenAPI ${document.openapi}: ${operations} operations (${deprecated} deprecated), ` +
      `${Object.keys(document.paths).length} paths, ${Object.keys(document.components.schemas).length} schemas, ` +
      `${(Buffer.byteLength(json) / 1024).toFixed(1)} KiB → packages/sdk/dist/openapi.json`,
  )
} finally {
  rmSync(dir, { recursive: true, force: true })
}
// The examples' mock may hold timers (webhook retries): the document is written, stop here.
process.exit(0)
