import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-provisioning',
    include: ['test/**/*.test.ts'],
    // Real processes and sockets: leave room on a busy CI machine.
    testTimeout: 30_000,
  },
})
