// Bundles a TypeScript module of the repository with esbuild and hands its exports to `use`:
// scripts/openapi.mjs bundles the SDK's document generator (packages/sdk/src/openapi/service.ts,
// the SDK's source only), scripts/openapi-examples.mjs the mock's example capture. Dependencies
// stay external and load from the package the module belongs to.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build } from 'esbuild'

export const root = fileURLToPath(new URL('..', import.meta.url))
/** The frozen example answers of the service's operations, read by `pnpm run openapi:write`. */
export const examplesFile = join(root, 'packages/sdk/openapi/examples.json')
/** The frozen example deliveries of the events (the document's `webhooks`), by entry key. */
export const webhookExamplesFile = join(root, 'packages/sdk/openapi/webhook-examples.json')
/** The frozen example answers of the mock's control endpoints, inlined into the mock's build. */
export const controlExamplesFile = join(root, 'packages/mock/src/openapi/control-examples.json')

/** Bundles `packages/<pkg>/<entry>` and calls `use` with its exports. */
export async function withBundle(pkg, entry, use) {
  // Inside the package, so that the bundle's imports of its dependencies resolve from there.
  const cache = join(root, `packages/${pkg}/node_modules/.cache`)
  mkdirSync(cache, { recursive: true })
  const dir = mkdtempSync(join(cache, 'openapi-'))
  try {
    const outfile = join(dir, 'bundle.mjs')
    await build({
      entryPoints: [join(root, `packages/${pkg}`, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node22',
      // Not tsconfig.json: its `paths` aim at the SDK's source, which must not be bundled twice.
      tsconfig: join(root, `packages/${pkg}/tsconfig.build.json`),
      logLevel: 'warning',
      packages: 'external',
    })
    return await use(await import(pathToFileURL(outfile).href))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
