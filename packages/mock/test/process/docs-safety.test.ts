/**
 * The curl session of running-the-mock.md "## Safety", run word for word against the CLI: each
 * answer must be the one the guide shows under its command (`…` stands for any text).
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { assertBuilt, startCli } from '../helpers/cli.js'

const GUIDE = fileURLToPath(new URL('../../../../docs/running-the-mock.md', import.meta.url))

/** The first ```sh block under `heading`. */
function firstShellBlock(heading: string): string {
  const text = readFileSync(GUIDE, 'utf8')
  const start = text.indexOf(`\n${heading}\n`)
  if (start === -1) throw new Error(`no section ${heading} in ${GUIDE}`)
  const block = text.slice(start).match(/```sh\n([\s\S]*?)```/)
  if (!block) throw new Error(`no sh block under ${heading}`)
  return block[1]!
}

describe('running-the-mock.md "Safety": the curl session answers what the guide shows', {
  timeout: 30_000,
}, () => {
  let run: Awaited<ReturnType<typeof startCli>>
  beforeAll(async () => {
    assertBuilt()
    run = await startCli(['--port', '0', '--quiet'])
  })
  afterAll(async () => {
    run.child.kill('SIGTERM')
    await run.exited
  })

  it('every command, its answer', () => {
    const port = new URL(run.url).port
    const lines = firstShellBlock('## Safety').trim().split('\n')
    const pairs: { command: string; expected: string }[] = []
    for (let i = 0; i < lines.length; i += 2) {
      expect(lines[i]).toMatch(/^curl /)
      expect(lines[i + 1]).toMatch(/^# \{/)
      pairs.push({ command: lines[i]!, expected: lines[i + 1]!.slice(2) })
    }
    expect(pairs.length).toBeGreaterThanOrEqual(4)
    for (const { command, expected } of pairs) {
      const local = command
        .replaceAll('127.0.0.1:4010', `127.0.0.1:${port}`)
        .replaceAll('localhost:4010', `localhost:${port}`)
      const output = execFileSync('bash', ['-c', local.replace(/^curl -s /, 'curl -sS ')], {
        encoding: 'utf8',
      })
      const pattern = new RegExp(
        `^${expected
          .split('…')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
      )
      expect(output.trim(), command).toMatch(pattern)
    }
  })
})
