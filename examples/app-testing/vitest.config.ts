import { defineProject } from 'vitest/config'

export default defineProject({
  test: {
    name: 'example-app-testing',
    include: ['test/**/*.test.ts'],
  },
})
