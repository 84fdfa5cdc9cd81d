// A shell recipe that waits for a ready line must not hang when the process never prints it (a
// taken port, a bad flag): every wait in the guides and READMEs is a bounded loop that also stops
// once the process has exited (docs/running-the-mock.md, "In CI, or from another language").
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const here = fileURLToPath(new URL('.', import.meta.url))
const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { cwd: here, encoding: 'utf8' }).trim()

/** The tracked Markdown files a user reads (histories left out). */
function guides(): string[] {
  return execFileSync('git', ['ls-files', '-z', '*.md'], { cwd: root, encoding: 'utf8' })
    .split('\0')
    .filter((path) => path !== '' && !/(^|\/)(CHANGELOG\.md|\.changeset\/)/.test(path))
}

/** The shell blocks of a Markdown text. */
const shellBlocks = (markdown: string) =>
  [...markdown.matchAll(/^```(?:sh|bash|shell)\n([\s\S]*?)^```/gm)].map((m) => m[1]!)

/** What is wrong with the waits of one shell block: unbounded loops, loops blind to the process. */
function waitProblems(block: string): string[] {
  const problems: string[] = []
  const lines = block.split('\n')
  lines.forEach((line, index) => {
    if (/^\s*(until|while)\b/.test(line))
      problems.push(`unbounded wait: ${line.trim()} (use for _ in $(seq N) with kill -0)`)
    if (!/^\s*for\b.*\$\(seq \d+\)/.test(line)) return
    const end = lines.findIndex((l, i) => i > index && /^\s*done\b/.test(l))
    const loop = lines.slice(index, end === -1 ? undefined : end + 1).join('\n')
    if (/\bgrep\b/.test(loop) && !/\bkill -0\b/.test(loop))
      problems.push(`a wait that does not stop when the process is gone: ${line.trim()}`)
  })
  return problems
}

describe('waits for a ready line in the docs', () => {
  it('the check itself: the old forms are caught, the safe one passes', () => {
    expect(waitProblems("until grep -q 'listening on' mock.log; do sleep 0.2; done")).toHaveLength(1)
    expect(
      waitProblems("until grep -qs 'x' m.log || ! kill -0 $P 2>/dev/null; do sleep 0.1; done"),
    ).toHaveLength(1)
    expect(
      waitProblems("for _ in $(seq 100); do\n  grep -qs 'x' m.log && break\n  sleep 0.1\ndone"),
    ).toHaveLength(1)
    expect(
      waitProblems(
        "for _ in $(seq 100); do\n  grep -qs 'x' m.log && break\n  kill -0 $P 2>/dev/null || break\n  sleep 0.1\ndone",
      ),
    ).toEqual([])
  })

  it('every guide and README waits with a time limit and stops when the process is gone', () => {
    const found: string[] = []
    let waits = 0
    for (const path of guides()) {
      for (const block of shellBlocks(readFileSync(join(root, path), 'utf8'))) {
        waits += (block.match(/\$\(seq \d+\)/g) ?? []).length
        for (const problem of waitProblems(block)) found.push(`${path}: ${problem}`)
      }
    }
    expect(found).toEqual([])
    expect(waits).toBeGreaterThanOrEqual(5)
  })
})
