// What the standalone server is measured on, by server.bench.mjs (wrk) and by
// scripts/server-instructions.mjs (callgrind): one reseller with 1,000 tickets and its key.

/** The API key of the reseller. */
export const KEY = 'svc_live_bench'

/** Headers node:http writes itself on every answer: a bare server copying the mock's gets them the same way. */
export const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** The seed: one reseller, 1,000 open tickets of one message each. */
export const seed = {
  resellers: [
    {
      id: 1,
      name: 'Bench Hosting',
      api_keys: [{ key: KEY, scopes: ['support:read', 'support:write'] }],
      tickets: Array.from({ length: 1000 }, (_, i) => ({
        subject: `Ticket number ${i + 1}`,
        department: 'technical',
        priority: 'normal',
        status: 'open',
        messages: [{ message: `First message of ticket ${i + 1}`, internal: false, from: 'client' }],
      })),
    },
  ],
}
