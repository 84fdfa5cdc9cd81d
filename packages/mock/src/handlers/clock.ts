/**
 * The clock's control endpoints: read the mock time, and move it forward
 * running the webhook deliveries that fall due on the way.
 */
import { control } from '../control/operations.js'
import { errors } from '../errors.js'
import { type Route, route } from '../routing/route.js'
import { ClockRangeError, LATEST_MOCK_TIME_MS } from '../state/clock.js'

export const clockRoutes: Route[] = [
  route(control.clock.get, (call) => call.answer(call.mock.clock.state())),
  route(
    control.clock.advance,
    async (call) => {
      const { seconds } = call.body()
      try {
        // Seconds may be fractional; the offset moves by whole milliseconds.
        return call.answer(await call.mock.clock.advance(Math.round(seconds * 1000)))
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
