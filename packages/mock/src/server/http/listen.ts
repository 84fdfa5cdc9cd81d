import type { IncomingMessage, ServerResponse } from 'node:http'
import { redactQuery } from '../../journal/redact.js'
import { API_PREFIX, isPromise } from '../../routing/core.js'
import type { CoreHandler, MockResponse } from '../../routing/types.js'
import { bind } from './bind.js'
import { answerClientError } from './client-error.js'
import { createCors, parseAllowedOrigins } from './cors.js'
import { createHttpServer, type EarlyServer, type listenEarly } from './early.js'
import { createGuard, readTarget } from './guard.js'
import { errorAnswer, NodeRequest, readBody, send } from './http-io.js'
import type { ListenOptions, RunningServer } from './options.js'

export type { ListenOptions, RunningServer } from './options.js'

/**
 * What the standalone server serves beside the mock's handler: the inspector's page, its assets and
 * its event stream (server/inspector.ts). Internal: not part of {@link ListenOptions}.
 */
export interface ServerExtension {
  /** Answers the request itself when it is one of its own; returns `true` when it did. */
  serve(req: IncomingMessage, res: ServerResponse, path: string): boolean
  /** Called once the handler answered a request: a journal entry, maybe a change. */
  answered(method: string, path: string): void
  /** Whether the request log leaves this request out (the inspector page's own reads); `path` below the mock's URL. */
  quiet(req: IncomingMessage, path: string): boolean
  /** Ends what holds connections open (event streams), so that `close()` does not wait for them. */
  close(): void
}

/**
 * One of the mocks a server hosts besides the one at its root (a namespace at `/ns/{id}`,
 * server/host/router.ts): its handler and extension, and the request as that mock sees it.
 */
export interface RoutedRequest {
  handle: CoreHandler
  extension: ServerExtension | undefined
  /** The path below the mock's URL (`/api/v1/…`). */
  path: string
  /** The request log's prefix of its lines: `[worker-3] `. */
  logPrefix: string
  /** Called once the mock answered (or dropped) the request. */
  answered?(path: string): void
}

/**
 * Where a request whose path is not the root mock's goes: `undefined` for the root mock, a
 * {@link RoutedRequest} for a hosted one, or the answer itself (an unknown namespace).
 */
export type HostRouter = (path: string) => RoutedRequest | MockResponse | undefined

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])
const DEFAULT_MAX_BODY = 1024 * 1024

type Answer = MockResponse | Promise<MockResponse>

const failedAnswer = (error: unknown) =>
  errorAnswer(500, 'internal_error', `the mock failed to answer: ${(error as Error)?.message ?? error}`)

const unsavedAnswer = (error: unknown) =>
  errorAnswer(
    500,
    'internal_error',
    `the change could not be saved to the state file: ${(error as Error)?.message ?? error}`,
  )

/** Runs the state file's hook of the request's kind (`onRead` or `onMutation`), then gives `response`. */
function afterHook(response: MockResponse, method: string, options: ListenOptions): Answer {
  const hook = READ_METHODS.has(method) ? options.onRead : options.onMutation
  if (!hook) return response
  try {
    const pending = hook()
    return pending === undefined ? response : pending.then(() => response, unsavedAnswer)
  } catch (error) {
    return unsavedAnswer(error)
  }
}

/** Calls the handler with the request read (a throw is a 500), then the state file's hook. */
function answerRead(
  req: IncomingMessage,
  path: string,
  search: string,
  method: string,
  body: string | null,
  handle: CoreHandler,
  options: ListenOptions & { maxBody: number },
): Answer {
  if (body === null)
    return errorAnswer(413, 'validation_error', `request body is larger than ${options.maxBody} bytes`)
  let response: Answer
  try {
    response = handle(new NodeRequest(req, method, path, search, body))
  } catch (error) {
    return failedAnswer(error)
  }
  if (!isPromise(response)) return afterHook(response, method, options)
  return response.then((done) => afterHook(done, method, options), failedAnswer)
}

/**
 * Answers one API or control request through the handler: reads the body (413 past `maxBody`),
 * calls the handler (a throw is a 500), then the state file's hook of its kind (`onRead` or
 * `onMutation`), so that no answer claims a change that was not saved. Nothing waits where
 * nothing has to: a request without a body, answered at once, is answered in this very turn.
 */
function answer(
  req: IncomingMessage,
  path: string,
  search: string,
  handle: CoreHandler,
  options: ListenOptions & { maxBody: number },
): Answer {
  // node:http's methods come from its parser's table, in upper case.
  const method = req.method ?? 'GET'
  const body = readBody(req, options.maxBody)
  if (!isPromise(body)) return answerRead(req, path, search, method, body, handle, options)
  return body.then((read) => answerRead(req, path, search, method, read, handle, options))
}

/**
 * Serves a {@link CoreHandler} over `node:http`. The request is handed to the handler as plain
 * values built straight from the `IncomingMessage` (no WHATWG `Request`/`Response` on the hot
 * path), connections are kept alive, and every answer carries an exact `Content-Length`.
 * `early`: a server bound already ({@link listenEarly}) to serve instead of binding `options.host`
 * and `options.port` (which must be the same).
 */
export function listen(
  rootHandle: CoreHandler,
  options: ListenOptions = {},
  rootExtension?: ServerExtension,
  router?: HostRouter,
  early?: EarlyServer,
): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const answerOptions = { ...options, maxBody: options.maxBodyBytes ?? DEFAULT_MAX_BODY }
  // Before the server exists: a bad `allowedHosts` entry rejects `listen()` instead of serving.
  let guard: ReturnType<typeof createGuard>
  let cors: ReturnType<typeof createCors>
  try {
    guard = createGuard({
      boundHost: host,
      allowedHosts: options.allowedHosts,
      allowedOrigins: options.allowedOrigins,
    })
    cors = createCors(parseAllowedOrigins(options.allowedOrigins))
  } catch (error) {
    return Promise.reject(error)
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // Absolute-form targets (`GET http://host/path`) are legal HTTP/1.1: their path is served, their
    // authority judged like Host.
    const target = readTarget(req.url ?? '/')
    const url = target?.url ?? '/'
    const q = url.indexOf('?')
    const fullPath = q === -1 ? url : url.slice(0, q)
    const search = url.slice(fullPath.length)
    // Host and Origin checks come first: nothing, not even the inspector's page, is served before.
    const refused = target
      ? guard(req, fullPath, target.authority)
      : errorAnswer(
          400,
          'bad_request',
          'the request target must be a path (/api/…) or an absolute http:// URL',
        )
    // A hosted mock (a namespace) sees the request below its own URL, as a root mock sees its own.
    const routed = refused || router === undefined ? undefined : router(fullPath)
    const hosted = routed !== undefined && !('status' in routed) ? routed : undefined
    const path = hosted ? hosted.path : fullPath
    const handle = hosted ? hosted.handle : rootHandle
    const extension = hosted ? hosted.extension : rootExtension
    const quiet = !options.log || extension?.quiet(req, path)
    // The log shows the target as the journal does: a key sent in the query string is redacted.
    const logPrefix = hosted ? hosted.logPrefix : ''
    const log = quiet
      ? undefined
      : (status: string) => options.log!(`${logPrefix}${req.method} ${path}${redactQuery(search)} ${status}`)
    const started = log ? performance.now() : 0
    const denied = refused ?? (routed !== undefined && 'status' in routed ? routed : undefined)
    if (denied) {
      // The body is not read: the answer closes the connection rather than wait for it.
      res.shouldKeepAlive = false
      send(res, denied)
      log?.(`${denied.status} refused`)
      return
    }
    // The extension serves pages and streams of its own, never below `/api/`: API requests skip it.
    if (!path.startsWith(API_PREFIX) && extension?.serve(req, res, path)) return
    const corsHeaders = cors.headersFor(req)
    if (corsHeaders && cors.isPreflight(req)) {
      send(res, cors.preflight(req, corsHeaders))
      return
    }
    const finish = (response: MockResponse) => {
      if (response.noAnswer) {
        // A `drop` fault: the connection ends without a byte of answer, as a lost connection does.
        res.destroy()
        extension?.answered(req.method ?? 'GET', path + search)
        hosted?.answered?.(path)
        log?.(`dropped ${(performance.now() - started).toFixed(1)}ms`)
        return
      }
      send(res, response, corsHeaders)
      extension?.answered(req.method ?? 'GET', path + search)
      hosted?.answered?.(path)
      log?.(`${response.status} ${(performance.now() - started).toFixed(1)}ms`)
    }
    const answered = answer(req, path, search, handle, answerOptions)
    if (!isPromise(answered)) {
      finish(answered)
      return
    }
    answered.then(finish, (error: unknown) => {
      // Only reading the body can land here (the client went away mid-request).
      if (!res.headersSent && !res.destroyed) {
        send(
          res,
          errorAnswer(400, 'validation_error', `could not read the request: ${(error as Error)?.message}`),
        )
      }
    })
  }

  // A server bound already (the CLI's early ready line) serves from now on, its waiting requests first.
  if (early) return Promise.resolve(early.adopt(onRequest, answerClientError, () => rootExtension?.close()))
  const server = createHttpServer()
  server.on('request', onRequest)
  server.on('clientError', answerClientError)

  return bind(server, host, options.port ?? 0, () => rootExtension?.close()).catch((error: unknown) => {
    // Nothing was served: what the extension holds (listeners, timers) goes with the server.
    rootExtension?.close()
    throw error
  })
}
