/**
 * The demo seed prepared at build time (`dist/demo-seed.json`, written by the mock's build): the
 * standalone server's start takes it instead of preparing the demo seed (server/seed/prebuilt.ts),
 * so it must be exactly what a start would have prepared from these sources.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { demoSeed } from '../../src/seed/demo.js'
import { prepareSeed } from '../../src/seed/prepared.js'
import { PREBUILT_DEMO_SEED, usePrebuiltDemoSeed } from '../../src/server/seed/prebuilt.js'
import { DEFAULT_RANDOM_SEED } from '../../src/state/random.js'

const file = new URL(`../../dist/${PREBUILT_DEMO_SEED}`, import.meta.url)

describe('the demo seed prepared by the build', () => {
  it('is the preparation of the demo seed of these sources, under the default random seed', () => {
    const built = JSON.parse(readFileSync(file, 'utf8'))
    expect(built.input).toBe(JSON.stringify(demoSeed))
    expect(built.randomSeed).toBe(DEFAULT_RANDOM_SEED)
    // A copy of the demo seed: another object, so prepared afresh (not the cached preparation).
    expect(built.prepared).toEqual(prepareSeed(structuredClone(demoSeed), DEFAULT_RANDOM_SEED))
  })

  it('is what prepareSeed returns for the demo seed once taken, frozen like a preparation of its own', () => {
    usePrebuiltDemoSeed()
    const prepared = prepareSeed(demoSeed)
    expect(prepared).toEqual(JSON.parse(readFileSync(file, 'utf8')).prepared)
    expect(Object.isFrozen(prepared.seed.resellers[0])).toBe(true)
    expect(Object.isFrozen(prepared.templates?.tables.tickets?.[0]?.row)).toBe(true)
    // Another random seed is not the build's: prepared at first use, with other uuids.
    expect(JSON.stringify(prepareSeed(demoSeed, 'another'))).not.toBe(JSON.stringify(prepared))
  })
})
