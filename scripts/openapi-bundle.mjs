// Bundles packages/mock/src/openapi/build.ts with esbuild and hands its exports to `use`: shared by
// scripts/openapi.mjs (the document) and scripts/openapi-examples.mjs (its frozen examples). The
// mock is not built when the SDK's build runs, so its source is bundled here; its imports of
// `@reseller-api/sdk` (kept external, like every dependency) load the SDK just built.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

export const root = fileURLToPath(new URL('..', import.meta.url))
/** The frozen example answers, written by `pnpm run openapi:examples`, read by the SDK's build. */
export const examplesFile = join(root, 'packages/sdk/openapi/examples.json')

export async function withOpenApiBuild(use) {
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
    return await use(await import(pathToFileURL(entry).href))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
