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

/**
 * Groups validation issues by field: `{ subject: ['must be at most 255 characters'] }`.
 * An unknown key becomes an issue of that key, so the message names it.
 */
export function fieldErrors(issues: readonly z.core.$ZodIssue[]): FieldErrors {
  const fields: FieldErrors = {}
  const add = (path: string, message: string) => {
    fields[path] ??= []
    fields[path].push(message)
  }
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) add(pathOf([...issue.path, key]), 'is not a known field')
    } else if (isMissing(issue)) {
      add(pathOf(issue.path), 'is required')
    } else if (issue.code === 'invalid_type') {
      add(pathOf(issue.path), `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`)
    } else {
      add(pathOf(issue.path), issue.message)
    }
  }
  return fields
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
