import { describe, expect, it } from 'vitest'

describe('toolchain', () => {
  it('runs the suite on the Node 24 that the workspace pins, whatever the system Node is', () => {
    expect(process.versions.node.split('.')[0]).toBe('24')
  })
})
