/**
 * A server's life on each target: `--state` (SQLite) across a clean restart and across SIGKILL,
 * SIGTERM and SIGINT ending it with exit 0, from the moment its ready line is printed.
 */
import { existsSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { IMAGE_USER, ready, type Server, selectedTargets, startServer, stop, TARGETS } from './targets.js'

const headers = { authorization: 'Bearer svc_live_acme_full', 'content-type': 'application/json' }

async function openTicket(server: Server, subject: string): Promise<string> {
  const answer = await fetch(`${server.url}/api/v1/support/tickets`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ subject, message: 'Kept in the state file?', department: 'technical' }),
  })
  expect(answer.status).toBe(201)
  return ((await answer.json()) as { data: { ticket_id: string } }).data.ticket_id
}

async function ticketSubject(server: Server, uuid: string): Promise<string | undefined> {
  const answer = await fetch(`${server.url}/api/v1/support/tickets/${uuid}`, { headers })
  return answer.status === 200
    ? ((await answer.json()) as { data: { subject: string } }).data.subject
    : undefined
}

describe.each(selectedTargets())('%s', (name) => {
  const target = TARGETS[name]

  test('keeps --state across a restart; SIGTERM and SIGINT exit 0', async () => {
    const dataDir = target.dataDir()
    const args = ['--port', '0', '--state', target.pathIn(dataDir, 'state.db')]
    const first = await startServer(target, args, { dataDir })
    expect(first.stdout.join('\n')).toMatch(/state\s+\S*state\.db \(new\)/)
    const uuid = await openTicket(first, 'Survives a restart')
    expect(await stop(first, 'SIGTERM')).toEqual({ code: 0, signal: null })
    expect(first.stdout).toContain('reseller-mock stopped (SIGTERM)')
    const file = join(dataDir, 'state.db')
    expect(existsSync(file)).toBe(true)
    // The image runs as its own user, never as root.
    if (name === 'image') expect(statSync(file).uid).toBe(IMAGE_USER)

    const second = await startServer(target, args, { dataDir })
    expect(second.stdout.join('\n')).toMatch(/state\s+\S*state\.db \(loaded\)/)
    expect(await ticketSubject(second, uuid)).toBe('Survives a restart')
    expect(await stop(second, 'SIGINT')).toEqual({ code: 0, signal: null })
    expect(second.stdout).toContain('reseller-mock stopped (SIGINT)')
  })

  test('loses no acknowledged change to SIGKILL', async () => {
    const dataDir = target.dataDir()
    const args = ['--port', '0', '--state', target.pathIn(dataDir, 'state.db')]
    const killed = await startServer(target, args, { dataDir })
    const uuid = await openTicket(killed, 'Acknowledged before the kill')
    const { code, signal } = await stop(killed, 'SIGKILL')
    // A process killed by a signal, or runc reporting it as 128 + 9.
    expect(signal === 'SIGKILL' || code === 137).toBe(true)

    const restarted = await startServer(target, args, { dataDir })
    expect(await ticketSubject(restarted, uuid)).toBe('Acknowledged before the kill')
    expect((await stop(restarted)).code).toBe(0)
  })

  test('exits 0 on SIGTERM sent as soon as the ready line is printed', async () => {
    // Signalled on the ready line itself, before the rest of the banner: the handlers are in place.
    const servers = await Promise.all([1, 2, 3].map(() => ready(target.spawn(['--port', '0']))))
    const ends = await Promise.all(servers.map((server) => stop(server, 'SIGTERM')))
    expect(ends).toEqual(servers.map(() => ({ code: 0, signal: null })))
  })
})
