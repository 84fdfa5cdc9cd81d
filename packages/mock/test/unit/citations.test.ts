// Comments, test names and docs must stand alone: a reader of this repository has the files in it
// and nothing else, so a citation of an outside document or a tracker number points nowhere. Cite
// the repository's own documents by file and heading instead (for example
// `docs/running-the-mock.md, "Seed format"`). Public standards ("RFC 9112 §3.2") are fine.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim()

/** What points outside the repository: section numbers of other documents, their paths, tracker numbers. */
const OUTSIDE_REFERENCES: readonly RegExp[] = [
  /\bspec(?:'s)? §/i,
  /\bcontract(?:'s)? §/i,
  /api-spec\.md/,
  /\.\.\/shared\b/,
  /\bissues? #?\d+/i,
  /\(issues?\s/i,
]

/** Histories and generated files: they may name what they like. */
function isSkipped(path: string): boolean {
  return (
    /(^|\/)CHANGELOG\.md$/.test(path) ||
    /(^|\/)\.changeset\//.test(path) ||
    /(^|\/)LICENSE$/.test(path) ||
    path === 'pnpm-lock.yaml'
  )
}

/** Every `file:line: text` of the tracked text files where an outside reference appears. */
function outsideReferences(files: readonly string[], read: (path: string) => string): string[] {
  const found: string[] = []
  for (const path of files) {
    if (isSkipped(path)) continue
    const text = read(path)
    if (text.includes('\0')) continue
    text.split('\n').forEach((line, index) => {
      if (OUTSIDE_REFERENCES.some((pattern) => pattern.test(line))) {
        found.push(`${path}:${index + 1}: ${line.trim().slice(0, 160)}`)
      }
    })
  }
  return found
}

function trackedFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8', maxBuffer: 64 << 20 })
    .split('\0')
    .filter((path) => path !== '')
}

function readTracked(path: string): string {
  try {
    return readFileSync(join(root, path), 'utf8')
  } catch {
    return '' // tracked but deleted in the work tree
  }
}

describe('citations', () => {
  it('no tracked source, test, script or doc cites a document or tracker outside the repository', () => {
    const self = 'packages/mock/test/unit/citations.test.ts'
    const files = trackedFiles().filter((path) => path !== self)
    expect(files.length).toBeGreaterThan(50)
    expect(outsideReferences(files, readTracked)).toEqual([])
  })

  it('finds each kind of outside reference, and leaves code variables and public standards alone', () => {
    const lines = {
      // Split so that a script removing such citations leaves this sample alone.
      'a.ts': '/** Tickets (spec ' + '§4.3). */',
      'b.ts': '// contract §6.2 defaults',
      'c.md': 'See CONTRACT §2.',
      'd.md': 'from `../shared/api-spec.md`',
      'e.ts': '// Retention (issue 13, point 4)',
      'f.md': '## Faults (issue 11)',
      'g.ts': 'const x = result.error.issues.map((issue) => issue.message)',
      'h.ts': '// RFC 9112 §3.2: one Host only',
      'i.ts': "if (issue.code === 'invalid_type') return isMissing(issue)",
      'j.ts': 'function isMissing(issue: z.core.$ZodIssue): boolean {',
      'k.md': '(issue notes: see the ticket)',
      'CHANGELOG.md': '- fixed (issue 13)',
      '.changeset/x.md': 'spec §4.3',
    }
    const found = outsideReferences(Object.keys(lines), (path) => lines[path as keyof typeof lines])
    expect(found.map((entry) => entry.split(':')[0])).toEqual([
      'a.ts',
      'b.ts',
      'c.md',
      'd.md',
      'e.ts',
      'f.md',
      'k.md',
    ])
  })
})
