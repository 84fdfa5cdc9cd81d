/** `mock.requests`: the in-process hand on the request journal. */
import { describeFieldErrors, validate } from '@reseller-api/sdk/schemas'
import type { Journal } from './journal.js'
import { type JournalEntry, JournalFilter } from './schema.js'

/** `mock.requests`. */
export interface MockRequests {
  /**
   * Journaled API requests, oldest first; `filter` keeps those whose every given field matches
   * (`path` is compared without the query). Throws a `TypeError` naming the field on a bad filter.
   */
  list(filter?: JournalFilter): JournalEntry[]
  /** Empties the journal; request ids keep counting. */
  clear(): void
}

/** Creates `mock.requests` over `journal`. */
export function createMockRequests(journal: Journal): MockRequests {
  return {
    list(filter) {
      if (filter === undefined) return journal.list()
      const parsed = validate(JournalFilter, filter)
      if (!parsed.success)
        throw new TypeError(`invalid journal filter: ${describeFieldErrors(parsed.fields)}`)
      return journal.list(parsed.data)
    },
    clear: () => {
      journal.clear()
    },
  }
}
