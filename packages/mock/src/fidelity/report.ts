/**
 * Output of `compare` and `replay`: the table on stdout, the `--report` JSON, the `--junit` XML,
 * the `--allow` file of known differences and the exit code (docs/keeping-the-mock-honest.md,
 * "Reports" and "The allow file").
 */
import type { Difference, StepResult } from './engine.js'

/** A known difference: every difference with this pointer and kind (in this step, if named) is allowed. */
export interface AllowRule {
  step?: string
  pointer: string
  kind: string
}

/** The `--report` file. `differences` counts those left after the allow file. */
export interface CompareReport {
  upstream: string
  scenario: string
  steps: StepResult[]
  differences: number
}

/** An allow file that cannot be read: names the line and the rule. */
export class AllowFileError extends Error {
  override readonly name = 'AllowFileError'
}

/** Parses an allow file: one JSON object `{ "step"?, "pointer", "kind" }` a line; blank lines and `#` lines are skipped. */
export function parseAllowFile(text: string, file = 'allow file'): AllowRule[] {
  const rules: AllowRule[] = []
  text.split(/\r?\n/).forEach((line, index) => {
    const trimmed = line.trim()
    if (trimmed === '' || trimmed.startsWith('#')) return
    const where = `${file}:${index + 1}`
    let value: unknown
    try {
      value = JSON.parse(trimmed)
    } catch {
      throw new AllowFileError(`${where}: not a JSON object`)
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new AllowFileError(`${where}: not a JSON object`)
    const { step, pointer, kind, ...rest } = value as Record<string, unknown>
    const unknown = Object.keys(rest)
    if (unknown.length > 0)
      throw new AllowFileError(`${where}: unknown field "${unknown[0]}" (fields: step, pointer, kind)`)
    if (typeof pointer !== 'string')
      throw new AllowFileError(`${where}: pointer must be a string (a JSON pointer, "" for the status)`)
    if (typeof kind !== 'string' || kind === '')
      throw new AllowFileError(`${where}: kind must be a non-empty string`)
    if (step !== undefined && typeof step !== 'string')
      throw new AllowFileError(`${where}: step must be a string`)
    rules.push(step === undefined ? { pointer, kind } : { step, pointer, kind })
  })
  return rules
}

/** `steps` without the differences `rules` allow. */
export function applyAllowRules(steps: StepResult[], rules: AllowRule[]): StepResult[] {
  if (rules.length === 0) return steps
  const allowed = (step: StepResult, d: Difference) =>
    rules.some(
      (r) => r.pointer === d.pointer && r.kind === d.kind && (r.step === undefined || r.step === step.name),
    )
  return steps.map((step) => ({ ...step, differences: step.differences.filter((d) => !allowed(step, d)) }))
}

/** How many differences the steps hold. */
export function countDifferences(steps: StepResult[]): number {
  return steps.reduce((sum, step) => sum + step.differences.length, 0)
}

/** 0 when no difference is left, 1 when any is. */
export function exitCodeOf(steps: StepResult[]): 0 | 1 {
  return countDifferences(steps) === 0 ? 0 : 1
}

/** The `--report` object. */
export function buildReport(upstream: string, scenario: string, steps: StepResult[]): CompareReport {
  return { upstream, scenario, steps, differences: countDifferences(steps) }
}

const show = (value: unknown) => (value === undefined ? '(absent)' : JSON.stringify(value))
const statusText = (status: number | null) => (status === null ? '---' : String(status))

/** `/data/x kind: upstream …, mock …`, and the rule broken for a `rule` difference. */
const describeDifference = (d: Difference) =>
  `${d.pointer === '' ? '(status)' : d.pointer} ${d.kind}: upstream ${show(d.upstream)}, mock ${show(d.mock)}${d.rule === undefined ? '' : ` (${d.rule})`}`

/**
 * The table: one line per step (`ok` or the number of differences, both statuses, method, path),
 * then one indented line per difference naming step, method, path, pointer and kind.
 */
export function formatTable(steps: StepResult[]): string {
  const width = Math.max(4, ...steps.map((s) => s.name.length))
  const lines: string[] = []
  for (const step of steps) {
    const verdict = step.differences.length === 0 ? 'ok  ' : `${String(step.differences.length).padEnd(3)}✗`
    const status = `${statusText(step.status[0])}/${statusText(step.status[1])}`
    lines.push(`${verdict} ${step.name.padEnd(width)} ${status} ${step.method} ${step.path}`)
    for (const d of step.differences) {
      lines.push(`       ${step.name} ${step.method} ${step.path} ${describeDifference(d)}`)
    }
  }
  const total = countDifferences(steps)
  lines.push(`${steps.length} steps, ${total} difference${total === 1 ? '' : 's'}`)
  return `${lines.join('\n')}\n`
}

const xml = (text: string) =>
  text
    .replace(
      /[<>&"']/g,
      (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c]!,
    )
    // Characters XML 1.0 cannot carry at all.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing them is the point
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')

/** JUnit XML: one test case per step, a failure per step with differences. */
export function formatJunit(suite: string, steps: StepResult[]): string {
  const failures = steps.filter((s) => s.differences.length > 0).length
  const cases = steps.map((step) => {
    const name = xml(`${step.name}: ${step.method} ${step.path}`)
    if (step.differences.length === 0) return `    <testcase classname="${xml(suite)}" name="${name}"/>`
    const body = step.differences.map((d) => describeDifference(d)).join('\n')
    return [
      `    <testcase classname="${xml(suite)}" name="${name}">`,
      `      <failure message="${step.differences.length} difference(s)" type="difference">${xml(body)}</failure>`,
      '    </testcase>',
    ].join('\n')
  })
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites tests="${steps.length}" failures="${failures}">`,
    `  <testsuite name="${xml(suite)}" tests="${steps.length}" failures="${failures}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n')
}
