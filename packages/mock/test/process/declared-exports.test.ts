// Declarations promise exactly what the JavaScript exports, for every entry of both packages:
// each value an entry's built `.d.ts` exports (what `import * as ns` offers a TypeScript user)
// exists in every JavaScript file the entry resolves to (scripts/lib/declared-exports.mjs). A
// class exported as a type only stays a type in the bundle (scripts/dts-type-only.mjs), so
// `x instanceof HostingResource` fails to compile instead of throwing at run time.
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
// @ts-expect-error: a plain ES module of the repository's scripts, without declarations.
import { entriesOf, missingValues } from '../../../../scripts/lib/declared-exports.mjs'
import { assertBuilt } from '../helpers/cli.js'

const packages = ['sdk', 'mock'].map((name) => fileURLToPath(new URL(`../../../${name}`, import.meta.url)))

describe('built declarations', { timeout: 120_000 }, () => {
  it('export as values only what the JavaScript of each entry exports, for every entry of both packages', async () => {
    assertBuilt()
    const entries = packages.flatMap((dir) => entriesOf(dir) as { name: string }[])
    expect(entries.map((e) => e.name)).toEqual(
      expect.arrayContaining([
        '@reseller-api/sdk',
        '@reseller-api/sdk/webhooks',
        '@reseller-api/mock/vitest',
      ]),
    )
    const { problems, checked } = (await missingValues(packages)) as { problems: string[]; checked: number }
    expect(problems).toEqual([])
    expect(checked).toBeGreaterThanOrEqual(entries.length)
  })
})
