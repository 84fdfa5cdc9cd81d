/** `mock.faults`: the in-process hand on the fault registry. */
import { describeFieldErrors } from '@reseller-api/sdk/schemas'
import { type FaultRegistry, faultJson, type StoredFault } from './registry.js'
import type { FaultJson, FaultSpec } from './schema.js'

/**
 * A fault added to a mock. `applied` and `remaining` are live; the other fields are as added, with
 * the default `code` and `message` of `respond` filled in. `JSON.stringify(fault)` gives what
 * `GET /__mock/faults` lists.
 */
export interface Fault extends Readonly<Omit<FaultJson, 'applied' | 'remaining'>> {
  /** Requests it has applied to so far. */
  readonly applied: number
  /** Requests it will still apply to; `null`: until removed. */
  readonly remaining: number | null
  /** Removes the fault; `false` when it was already gone (removed, cleared or used up). */
  remove(): boolean
  /** The fault as `GET /__mock/faults` lists it. */
  toJSON(): FaultJson
}

/** `mock.faults`. */
export interface MockFaults {
  /**
   * Adds a fault, applied to API requests after the ones added before it (the first match wins).
   * Throws a `TypeError` naming the field and the rule when `spec` makes no sense.
   */
  add(spec: FaultSpec): Fault
  /** Every fault still active, in the order added. */
  list(): Fault[]
  /** Removes every fault. */
  clear(): void
}

function handleOf(registry: FaultRegistry, stored: StoredFault): Fault {
  const json = faultJson(stored)
  const { applied: _applied, remaining: _remaining, ...fixed } = json
  return {
    ...fixed,
    get applied() {
      return stored.applied
    },
    get remaining() {
      return stored.times === undefined ? null : stored.times - stored.applied
    },
    remove: () => registry.remove(stored.id) !== undefined,
    toJSON: () => faultJson(stored),
  }
}

/** Creates `mock.faults` over `registry`. */
export function createMockFaults(registry: FaultRegistry): MockFaults {
  // One handle per fault: `list()` returns the very objects `add()` returned.
  const handles = new WeakMap<StoredFault, Fault>()
  const handle = (stored: StoredFault): Fault => {
    let found = handles.get(stored)
    if (found === undefined) {
      found = handleOf(registry, stored)
      handles.set(stored, found)
    }
    return found
  }
  return {
    add(spec) {
      const checked = registry.check(spec)
      if (!checked.success) throw new TypeError(`invalid fault: ${describeFieldErrors(checked.fields)}`)
      return handle(registry.add(checked.fault))
    },
    list: () => registry.list().map(handle),
    clear: () => {
      registry.clear()
    },
  }
}
