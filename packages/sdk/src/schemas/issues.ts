import type * as z from 'zod/mini'
import type { FieldErrors } from './common.js'

/** The field path of an issue, dot-separated (`events.0`), or `body` for the whole value. */
function pathOf(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'body' : path.map(String).join('.')
}

// zod/mini ships no locale (it would cost the browser bundle), so type errors are worded here.
const TYPE_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  int: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
  record: 'an object',
  null: 'null',
  literal: 'the expected literal value',
}

/** A required value that was absent (needs issues parsed with `reportInput: true`). */
function isMissing(issue: z.core.$ZodIssue): boolean {
  return (
    (issue.code === 'invalid_type' || issue.code === 'invalid_value') &&
    'input' in issue &&
    issue.input === undefined
  )
}

/** One failing value: where it is and the rule it broke, worded for people. */
export interface IssueMessage {
  /** Path of the value inside what was parsed; empty for the whole value. */
  path: readonly PropertyKey[]
  /** The rule it broke, e.g. `must be at most 255 characters`, `is required`, `is not a known field`. */
  message: string
}

/**
 * Words zod issues for people: a missing value `is required`, a wrong type `must be an integer`,
 * an unknown key becomes an issue of that key (`is not a known field`); other rules keep the
 * message their schema gives. The SDK, the mock's request checks and its seed loader all word
 * refusals through this one function.
 */
export function issueMessages(issues: readonly z.core.$ZodIssue[]): IssueMessage[] {
  const out: IssueMessage[] = []
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) out.push({ path: [...issue.path, key], message: 'is not a known field' })
    } else if (isMissing(issue)) {
      out.push({ path: issue.path, message: 'is required' })
    } else if (issue.code === 'invalid_type') {
      out.push({ path: issue.path, message: `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}` })
    } else {
      out.push({ path: issue.path, message: issue.message })
    }
  }
  return out
}

/**
 * Groups validation issues by field: `{ subject: ['must be at most 255 characters'] }`.
 * An unknown key becomes an issue of that key, so the message names it.
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  // Field names come from the client's JSON: `__proto__` or `constructor` are fields like any
  // other. A Map never confuses them with Object.prototype; `fromEntries` then defines them as own
  // properties (plain assignment to `__proto__` would set the prototype instead).
  const fields = new Map<string, string[]>()
  for (const { path, message } of issueMessages(issues)) {
    const field = pathOf(path)
    const messages = fields.get(field)
    if (messages) messages.push(message)
    else fields.set(field, [message])
  }
  return Object.fromEntries(fields)
}

/** One line naming each failing field and its rule: `subject: must be at most 255 characters`. */
export function describeFieldErrors(fields: FieldErrors): string {
  return Object.entries(fields)
    .map(([field, messages]) => `${field}: ${messages.join(', ')}`)
    .join('; ')
}

/** Outcome of {@link validate}: the parsed value, or the failing fields. */
export type Validation<T> = { success: true; data: T } | { success: false; fields: FieldErrors }

/**
 * Parses `value` with `schema` and, on failure, groups the issues by field. The SDK checks request
 * bodies with it before sending and the mock checks them on arrival, so both refuse the same input
 * with the same messages.
 */
export function validate<S extends z.ZodMiniType>(schema: S, value: unknown): Validation<z.output<S>> {
  const result = schema.safeParse(value, { reportInput: true })
  if (result.success) return { success: true, data: result.data }
  return { success: false, fields: fieldErrors(result.error.issues) }
}
