/**
 * The namespace endpoints of a standalone server's root (`/__mock/namespaces…`), as `connectMock`
 * calls them: declarations in the form of `operations.ts`, read by the client alone (the server
 * answers them in front of the route table; docs/parallel-tests.md). Answers are read loosely
 * (`z.object`): a newer server may add fields.
 */
import * as z from 'zod/mini'
import { controlEndpoint } from './endpoint.js'

/** A key of a namespace's seed, as the CLI prints the seed's keys. */
export const NamespaceKey = z.object({
  key: z.string(),
  mode: z.enum(['live', 'sandbox']),
  scopes: z.array(z.string()),
  reseller_id: z.number(),
  reseller: z.string(),
})

/** Answer of `POST /__mock/namespaces`: the namespace made, its URL and its seed's keys. */
export const NamespaceCreated = z.object({
  id: z.string(),
  url: z.string(),
  keys: z.array(NamespaceKey),
  label: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
})

/** A namespace as `GET /__mock/namespaces` lists it. */
export const NamespaceListed = z.object({
  id: z.string(),
  url: z.string(),
  label: z.nullable(z.string()),
  created_at: z.string(),
  expires_at: z.string(),
  /** API requests answered under its URL (control requests not counted). */
  requests: z.number(),
})

/** The namespace endpoints of a root, one declaration each. */
export const namespaceEndpoints = {
  create: controlEndpoint('POST', '/__mock/namespaces', {
    body: z.record(z.string(), z.unknown()),
    bodyOptional: true,
    data: NamespaceCreated,
    status: 201,
  }),
  list: controlEndpoint('GET', '/__mock/namespaces', { data: z.array(NamespaceListed) }),
  get: controlEndpoint('GET', '/__mock/namespaces/{id}', {
    params: { id: z.string() },
    data: NamespaceListed,
  }),
  delete: controlEndpoint('DELETE', '/__mock/namespaces/{id}', {
    params: { id: z.string() },
    data: z.object({ id: z.string(), deleted: z.literal(true) }),
  }),
  clear: controlEndpoint('DELETE', '/__mock/namespaces', { data: z.object({ deleted: z.number() }) }),
}
