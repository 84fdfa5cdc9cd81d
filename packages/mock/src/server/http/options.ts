/**
 * The server's options and handle, as types only: the default entry (`src/index.ts`) names them in
 * `mock.listen()`'s signature, so this module imports nothing, least of all `node:http`.
 */

/** Options of the standalone HTTP server: `mock.listen()` and the `reseller-mock` CLI. */
export interface ListenOptions {
  /** TCP port; `0` (the default) takes a free one, read it back from `url`. */
  port?: number
  /** Interface to bind; default `127.0.0.1`. */
  host?: string
  /** Receives one line per answered request: `GET /api/v1/support/tickets?page=1 200 0.4ms`. */
  log?: (line: string) => void
  /**
   * Called after a mutating request (any method but GET, HEAD and OPTIONS) was handled and before
   * its answer is written: the write-through hook of the state file. If it rejects, the client
   * gets a 500 `internal_error` instead of an answer that would claim a change that was not saved.
   */
  onMutation?: () => Promise<void>
  /**
   * Called before answering a read (GET, HEAD, OPTIONS). The state file uses it so that a client
   * never sees a change made outside any request (a delivery attempt) before that change is saved.
   */
  onRead?: () => Promise<void> | undefined
  /** Largest request body accepted, in bytes; default 1 MiB. Larger bodies get 413. */
  maxBodyBytes?: number
  /**
   * Host names accepted in the `Host` header besides loopback names and addresses and the bound
   * address (CLI `--allowed-host`), with or without a port. Any other `Host` gets 403
   * `forbidden_host`: a page on another name that resolves to this machine (DNS rebinding) reads
   * nothing.
   */
  allowedHosts?: readonly string[]
  /**
   * Origins (`scheme://host[:port]`, CLI `--allowed-origin`) whose pages may call the server
   * from the browser: their requests pass the Origin rule, and their answers carry CORS headers
   * (preflights answered). Requests from any other origin to `/api/` or `/__mock/` get 403
   * `cross_origin`.
   */
  allowedOrigins?: readonly string[]
}

/** A running standalone server. */
export interface RunningServer {
  /** `http://host:port`, with the real port when `0` was asked. */
  url: string
  /** The bound port. */
  port: number
  /** Stops accepting connections, closes idle keep-alive sockets and resolves once in-flight requests are answered. */
  close(): Promise<void>
}
