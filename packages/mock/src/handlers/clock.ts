/**
 * The clock's control endpoints: read the mock time, and move it forward
 * running the webhook deliveries that fall due on the way.
 */
import * as z from 'zod/mini'
import { errors } from '../errors.js'
import { data } from '../routing/reply.js'
import { type Route, route } from '../routing/route.js'
import { ClockRangeError, LATEST_MOCK_TIME_MS } from '../state/clock.js'

/** Longest single clock move through the control endpoint: 10 years, in seconds. */
export const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600

/** Body of `POST /__mock/clock/advance`. */
export const ClockAdvanceBody = z.strictObject({
  seconds: z
    .number('must be a number of seconds')
    .check(
      z.gte(0, 'must be 0 or more'),
      z.lte(MAX_ADVANCE_SECONDS, `must be at most ${MAX_ADVANCE_SECONDS} (10 years)`),
    ),
})

/** `data` of `GET /__mock/clock` and `POST /__mock/clock/advance`: the mock time and its lead over real time. */
export const ClockState = z.object({ now: z.string(), offset_ms: z.number() })

export const clockRoutes: Route[] = [
  route('GET', '/__mock/clock', { auth: 'none' }, (call) => data(ClockState, call.mock.clock.state())),
  route(
    'POST',
    '/__mock/clock/advance',
    { auth: 'none' },
    async (call) => {
      const { seconds } = call.body(ClockAdvanceBody)
      try {
        // Seconds may be fractional; the offset moves by whole milliseconds.
        return data(ClockState, await call.mock.clock.advance(Math.round(seconds * 1000)))
      } catch (error) {
        if (!(error instanceof ClockRangeError)) throw error
        throw errors.field(
          'seconds',
          `must be at most ${Math.floor(error.remainingMs / 1000)}: the mock's clock stops at ${new Date(LATEST_MOCK_TIME_MS).toISOString()}, the latest time it can write`,
        )
      }
    },
    { transaction: false },
  ),
]
