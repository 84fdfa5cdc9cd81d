/**
 * The rules the OpenAPI document the mock serves states about a value (`pattern`, `format`,
 * `const`, `enum`, bounds), checked on one side's answer. The comparison engine masks values that
 * cannot agree between the two sides (ids made during the run, times, prose), but a masked value
 * still obeys its documented rules: a simulated account's username must start with `sb_` on both
 * sides, whatever follows (docs/keeping-the-mock-honest.md, "What is compared").
 *
 * The answer's schema is the document's own, turned into a validator by zod's `fromJSONSchema`
 * (as the recorder's check does, `openapi-check.ts`); where a union fails, the branch the value
 * came closest to is the one whose rules are reported.
 */
import type { ZodType } from 'zod'
import { compileSchema } from './openapi-check.js'
import { type OpenApiLike, responseSchema } from './openapi-lookup.js'

/** A value of an answer that breaks a rule of the document: where (JSON pointer) and which rule. */
export interface RuleBreak {
  pointer: string
  rule: string
}

/** zod issue codes that name a rule about a value; types, missing and added fields are the engine's. */
const RULE_CODES = new Set(['invalid_format', 'invalid_value', 'too_big', 'too_small', 'not_multiple_of'])

interface Issue {
  code: string
  path: PropertyKey[]
  message: string
  /** `invalid_value`: the values allowed (one for a `const`). */
  values?: unknown[]
  errors?: Issue[][]
}

/** Validators by document, then by `method template status`; `null`: no JSON schema for that answer. */
const validators = new WeakMap<object, Map<string, ZodType | null>>()

function validatorOf(doc: OpenApiLike, method: string, path: string, status: number): ZodType | null {
  let byAnswer = validators.get(doc)
  if (!byAnswer) {
    byAnswer = new Map()
    validators.set(doc, byAnswer)
  }
  const found = responseSchema(doc, method, path, status)
  if (!found) return null
  let validator = byAnswer.get(found.key)
  if (validator === undefined) {
    validator = compileSchema(found.schema, doc.components?.schemas ?? {})
    byAnswer.set(found.key, validator)
  }
  return validator
}

/**
 * How far a value is from a union's branch: a constant that differs (`sandbox: true` against a
 * branch's `const: false`) says it is another branch altogether, a wrong type nearly so, and any
 * other issue is a rule the value breaks within the branch.
 */
function distance(issues: Issue[]): number {
  let total = 0
  for (const issue of issues) {
    if (issue.code === 'invalid_value' && issue.values?.length === 1) total += 100
    else if (issue.code === 'invalid_type') total += 10
    else total += 1
  }
  return total
}

/** The issues of the branch a failed union came closest to (the first of the closest). */
function closestBranch(branches: Issue[][]): Issue[] {
  let best: Issue[] = []
  let bestDistance = Number.POSITIVE_INFINITY
  for (const branch of branches) {
    const d = distance(branch)
    if (d < bestDistance) {
      best = branch
      bestDistance = d
    }
  }
  return best
}

function collect(issues: Issue[], base: PropertyKey[], out: RuleBreak[]): void {
  for (const issue of issues) {
    const path = [...base, ...issue.path]
    if (issue.code === 'invalid_union' && issue.errors && issue.errors.length > 0) {
      collect(closestBranch(issue.errors), path, out)
    } else if (RULE_CODES.has(issue.code)) {
      out.push({
        pointer: path.map((part) => `/${String(part).replace(/~/g, '~0').replace(/\//g, '~1')}`).join(''),
        rule: issue.message,
      })
    }
  }
}

/**
 * The values of `body` (a parsed JSON answer of `method path` with `status`) that break a rule the
 * document states for them. Empty when they all hold, or when the document has no JSON schema for
 * that answer.
 */
export function ruleBreaks(
  doc: OpenApiLike,
  method: string,
  path: string,
  status: number | null,
  body: unknown,
): RuleBreak[] {
  if (status === null || body === null || typeof body !== 'object') return []
  const validator = validatorOf(doc, method, path, status)
  if (!validator) return []
  const result = validator.safeParse(body)
  if (result.success) return []
  const out: RuleBreak[] = []
  collect(result.error.issues as unknown as Issue[], [], out)
  return out
}
