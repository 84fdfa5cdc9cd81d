/**
 * The page's hand on the mock: the control endpoints under `/__mock/` (relative URLs: the page lives
 * at `/__mock/`). Reads carry a header that keeps them out of the server's request log: they are
 * the page's traffic, not the user's (docs/running-the-mock.md, "Inspector").
 */

/** A row of a table of the state, a delivery, a journal entry or a fault (fields read defensively). */
export interface Row {
  [field: string]: unknown
}

/** `data` of `GET /__mock/state` (the fields shown). */
export interface State {
  tables: Record<string, Row[]>
  clock_offset_ms: number
}

/** `data` of `GET /__mock/clock`. */
export interface Clock {
  now: string
  offset_ms: number
}

/** An answer that is not `{ success: true }`, with the API's message (which names the fields). */
export class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message)
  }
}

/** Sent with every read of the page; must match `INSPECTOR_READ_HEADER` of server/inspector.ts. */
const READ_HEADER = 'x-reseller-mock-inspector'

/** Calls a control endpoint; resolves to its `data`, rejects with a {@link ControlError}. */
export async function call(method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = {}
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (method === 'GET') headers[READ_HEADER] = 'read'
  const response = await fetch(path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const json = (await response.json().catch(() => null)) as {
    success?: boolean
    data?: unknown
    error?: { message?: string }
  } | null
  if (!response.ok || !json?.success) {
    // The API's message already names each failing field and its rule: shown as it is, once.
    throw new ControlError(response.status, json?.error?.message ?? `HTTP ${response.status}`)
  }
  return json.data
}

/** A read that a mock without that endpoint does not serve: `null` on 404. */
export async function optional<T>(path: string): Promise<T | null> {
  try {
    return (await call('GET', path)) as T
  } catch (error) {
    if (error instanceof ControlError && error.status === 404) return null
    throw error
  }
}
