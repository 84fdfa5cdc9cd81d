/**
 * Runs the provisioning walk-through over real HTTP.
 *
 *   node src/main.ts                                     starts a mock in this process (demo seed)
 *   RESELLER_API_URL=http://127.0.0.1:4010 node src/main.ts   uses a running `reseller-mock`
 *
 * Exit code 0 when every step passed, 1 otherwise.
 */
import { createMockApi } from '@reseller-api/mock'
import { provisionAndFollow } from './provision.ts'

const external = process.env.RESELLER_API_URL
// The standalone mock, served from this process on a free port: the same server as `reseller-mock`.
const server = external ? undefined : await createMockApi().listen({ port: 0 })
const baseUrl = external ?? server!.url
if (server) console.log(`Started the mock on ${server.url} (demo seed)`)

try {
  await provisionAndFollow({
    baseUrl,
    apiKey: process.env.RESELLER_API_KEY ?? 'svc_live_acme_full',
    clientId: Number(process.env.CLIENT_ID ?? 503),
    domain: process.env.DOMAIN ?? `client-${Date.now().toString(36)}.example`,
  })
  console.log('Done.')
} catch (error) {
  console.error(`Failed: ${error instanceof Error ? error.message : String(error)}`)
  process.exitCode = 1
} finally {
  await server?.close()
}
