// The package's two entries (the default one and the `node` condition's) export the same values:
// node.ts names them one by one (see the comment there), so this keeps the lists in step.
import { describe, expect, it } from 'vitest'
import * as defaultEntry from '../../src/index.js'
import * as nodeEntry from '../../src/node.js'

describe('the default and the node entries', () => {
  it('export the same names; only createMockApi differs (the node one can listen)', () => {
    expect(Object.keys(nodeEntry).sort()).toEqual(Object.keys(defaultEntry).sort())
    expect(nodeEntry.createMockApi).not.toBe(defaultEntry.createMockApi)
    expect(nodeEntry.MockApiError).toBe(defaultEntry.MockApiError)
  })
})
