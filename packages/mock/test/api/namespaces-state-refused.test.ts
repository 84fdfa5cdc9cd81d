/**
 * A state file whose saved namespace the mock cannot restore is refused at start, and that refused
 * start leaves nothing behind: the file is released (its lock, its connection), so the same process
 * starts on it again once the row is mended.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startStandalone } from '../../src/server/host/standalone.js'
import { StateFileError } from '../../src/server/state-file/path.js'

let dir: string
let state: string

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'reseller-mock-ns-refused-'))
  state = join(dir, 'state.db')
  const server = await startStandalone({ port: 0, statePath: state })
  const made = await fetch(`${server.url}/__mock/namespaces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ id: 'broken' }),
  })
  expect(made.status).toBe(201)
  await server.close()
})
afterAll(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** Runs `sql` on the state file from outside the mock. */
function edit(sql: string): void {
  const db = new DatabaseSync(state)
  try {
    db.exec(sql)
  } finally {
    db.close()
  }
}

it('refuses a saved namespace it cannot restore, then starts on the mended file', async () => {
  edit("UPDATE namespaces SET state = 'not json' WHERE id = 'broken'")
  const refused = await startStandalone({ port: 0, statePath: state }).catch((error: unknown) => error)
  expect(refused).toBeInstanceOf(StateFileError)
  expect((refused as Error).message).toContain('namespaces')

  edit("DELETE FROM namespace_rows WHERE ns = 'broken'; DELETE FROM namespaces WHERE id = 'broken'")
  const server = await startStandalone({ port: 0, statePath: state })
  try {
    const usage = await fetch(`${server.url}/api/v1/reseller/whm/usage`, {
      headers: { authorization: 'Bearer svc_live_acme_full' },
    })
    expect(usage.status).toBe(200)
  } finally {
    await server.close()
  }
})
