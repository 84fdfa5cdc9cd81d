/**
 * `reseller-mock trigger --all --forward-to` on each target: the binary and the image send every
 * event as the npm CLI does (the same code, no Node or package files beside them), to a receiver of
 * the host that verifies each signature with its own HMAC code.
 */
import { describe, expect, test } from 'vitest'
import { startVerifyingReceiver } from '../helpers/webhooks.js'
import { runToEnd, selectedTargets, TARGETS } from './targets.js'

const SECRET = 'whsec_blackbox'

describe.each(selectedTargets())('%s', (name) => {
  const target = TARGETS[name]

  test('trigger --all delivers every event of both styles and one unknown of each, signed', async () => {
    const receiver = await startVerifyingReceiver(SECRET)
    try {
      const run = await runToEnd(target, [
        'trigger',
        '--all',
        '--forward-to',
        receiver.url,
        '--secret',
        SECRET,
      ])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout.trim().split('\n').at(-1)).toBe('20 delivered, 0 failed')
      expect(receiver.seen).toHaveLength(20)
      expect(receiver.seen.every((delivery) => delivery.valid)).toBe(true)
      expect(receiver.seen.map((delivery) => delivery.event).slice(-2)).toEqual([
        'vps.migrated',
        'service.migrated',
      ])
    } finally {
      await receiver.close()
    }
  })
})
