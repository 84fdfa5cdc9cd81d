import { afterEach, describe, expect, it } from 'vitest'
import { addressProblem } from '../../src/domain/target-policy.js'
import { createGuardedFetch, publicFetch } from '../../src/server/http/public-fetch.js'
import { attemptDelivery } from '../../src/webhooks/attempt.js'
import { startReceiver } from '../helpers/webhooks.js'

/** What every refusal of a target adds: a policy decision, and the flag that lifts it. */
const HINT =
  '; the mock sends to loopback and private addresses, and over http://, only when started with --insecure-webhooks (createMockApi({ insecureWebhooks: true }) in-process); nothing was sent'

const cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!()
})

async function receiver(answer?: Parameters<typeof startReceiver>[0]) {
  const r = await startReceiver(answer)
  cleanups.push(() => r.close())
  return r
}

/** The cause of a rejected fetch, as `attemptDelivery` reads it. */
async function causeOf(promise: Promise<unknown>): Promise<string> {
  const error = (await promise.then(
    () => expect.unreachable('the fetch should have failed'),
    (e: unknown) => e,
  )) as TypeError
  expect(error).toBeInstanceOf(TypeError)
  return String((error.cause as Error).message)
}

describe('publicFetch (deliveries of the standalone server)', () => {
  it('refuses a name whose lookup answers a loopback address, in the lookup its socket makes: nothing is sent', async () => {
    const r = await receiver()
    const cause = await causeOf(
      publicFetch(`http://localhost:${r.port}/hook`, { method: 'POST', body: '{}' }),
    )
    expect(cause).toMatch(
      /^target refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address; .*--insecure-webhooks .*; nothing was sent$/,
    )
    expect(r.received).toHaveLength(0)
  })

  it('refuses IP literals it is handed directly, in every special range', async () => {
    const r = await receiver()
    for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]']) {
      const cause = await causeOf(
        publicFetch(`http://${host}:${r.port}/hook`, { method: 'POST', body: '{}' }),
      )
      expect(cause).toMatch(/^target refused: /)
    }
    expect(r.received).toHaveLength(0)
  })

  it('judges the address the socket connects to, so a rebinding name cannot pass (mixed answers refused)', async () => {
    const r = await receiver()
    const asked: string[] = []
    // A rebinding name: a public address first, then the local one where the receiver listens.
    let calls = 0
    const rebinding = (hostname: string, _options: unknown, callback: (...args: unknown[]) => void) => {
      asked.push(hostname)
      calls++
      // 1st lookup: public; 2nd: loopback; 3rd: public and loopback mixed.
      const answers = [['93.184.215.14'], ['127.0.0.1'], ['8.8.8.8', '127.0.0.1']][calls - 1] ?? []
      callback(
        null,
        answers.map((address) => ({ address, family: 4 })),
      )
    }
    const guarded = createGuardedFetch(addressProblem, rebinding as never)
    // A separate check would have seen only the public answer of the first lookup.
    rebinding('rebind.example', {}, () => {})
    const second = await causeOf(
      guarded(`http://rebind.example:${r.port}/hook`, { method: 'POST', body: '{}' }),
    )
    expect(second).toBe(`target refused: rebind.example resolves to 127.0.0.1, a loopback address${HINT}`)
    const mixed = await causeOf(
      guarded(`http://rebind.example:${r.port}/hook`, { method: 'POST', body: '{}' }),
    )
    expect(mixed).toBe(`target refused: rebind.example resolves to 127.0.0.1, a loopback address${HINT}`)
    expect(asked).toEqual(['rebind.example', 'rebind.example', 'rebind.example'])
    expect(r.received).toHaveLength(0)
  })
})

describe('a delivery attempt through publicFetch', () => {
  it('reports a refused address as `target refused: …`, like any refusal that made no connection', async () => {
    const r = await receiver()
    const attempt = (url: string) =>
      attemptDelivery(
        { url, body: '{}', signature: 'sha256=00', deliveryId: 'dlv_1', event: 'ticket.created' },
        { fetch: publicFetch },
      )
    const byName = await attempt(`http://localhost:${r.port}/hook`)
    expect(byName).toMatchObject({ ok: false, httpStatus: null })
    expect(byName.error).toMatch(
      /^target refused: localhost resolves to (127\.0\.0\.1|::1), a loopback address; .*--insecure-webhooks .*; nothing was sent$/,
    )
    const literal = await attempt(`http://127.0.0.1:${r.port}/hook`)
    expect(literal.error).toBe(`target refused: 127.0.0.1 is a loopback address${HINT}`)
    expect(r.received).toHaveLength(0)
  })
})

describe('createGuardedFetch as a fetch', () => {
  // Loopback allowed, to exercise the request mechanics against a local receiver.
  const loopbackFetch = createGuardedFetch(() => null)

  it('sends method, headers and body, and answers status, headers and body', async () => {
    const r = await receiver(() => 202)
    const answer = await loopbackFetch(
      new Request(r.url, { method: 'POST', body: '{"a":1}', headers: { 'x-test': 'yes' } }),
    )
    expect(answer.status).toBe(202)
    expect(answer.headers.get('content-type')).toBe('text/plain')
    expect(await answer.text()).toBe('ok')
    expect(r.received[0]?.body).toBe('{"a":1}')
    expect(r.received[0]?.headers['x-test']).toBe('yes')
  })

  it('answers a 204 with no body', async () => {
    const r = await receiver(() => 204)
    const answer = await loopbackFetch(r.url, { method: 'POST', body: 'x' })
    expect(answer.status).toBe(204)
    expect(answer.body).toBeNull()
  })

  it('does not follow a redirect, and aborts on its signal', async () => {
    const redirect = await receiver(() => 302)
    expect(
      (await loopbackFetch(redirect.url, { method: 'POST', body: 'x', redirect: 'manual' })).status,
    ).toBe(302)
    const hang = await receiver(() => 'hang')
    const error = await loopbackFetch(hang.url, {
      method: 'POST',
      body: 'x',
      signal: AbortSignal.timeout(50),
    }).catch((e: Error) => e)
    expect((error as Error).name).toBe('TimeoutError')
  })

  it('rejects as fetch does when nothing listens', async () => {
    const r = await receiver()
    await r.close()
    cleanups.pop()
    const cause = (await loopbackFetch(r.url, { method: 'POST', body: 'x' }).catch(
      (e: TypeError) => e,
    )) as TypeError
    expect(cause).toBeInstanceOf(TypeError)
    expect((cause.cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED')
  })
})
