/**
 * The mock's transport-neutral request and answer. The route table works on these plain values so
 * that the MSW handlers, `mock.fetch` and the standalone `node:http` server share one code path,
 * and the server can answer without building WHATWG `Request`/`Response` objects on its hot path.
 */

/** A request as the mock's routes see it. */
export interface MockRequest {
  /** Upper-case HTTP method. */
  method: string
  /** Path below the mock's base URL, starting with `/`, e.g. `/api/v1/support/tickets`. */
  path: string
  /** Query string parameters. */
  query: URLSearchParams
  /** Case-insensitive header lookup. */
  headers: { get(name: string): string | null }
  /** Raw request body; `''` when there is none. */
  body: string
}

/** An answer of the mock's routes. */
export interface MockResponse {
  status: number
  /** Header names in lower case. */
  headers: Record<string, string>
  /** Serialized body; `''` for none. */
  body: string
}

/** Resolves a {@link MockRequest}: the whole mock service as one function. */
export type MockHandler = (request: MockRequest) => Promise<MockResponse>
