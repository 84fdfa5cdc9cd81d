/**
 * Request hooks: the client tells the caller about each attempt, for tracing and metrics without
 * wrapping `fetch` (docs/errors-and-retries.md, "Hooks"). They get the method, the URL and what
 * came back, never the key or a header. A hook runs inside the call but cannot break it: what it
 * throws, or what its promise rejects with, is logged and the call goes on; its promise is not
 * awaited.
 */
import type { HttpMethod } from './endpoint.js'

/** What {@link RequestHooks.onRequest} gets: one attempt, about to be sent. */
export interface RequestHookInfo {
  /** HTTP method of the request. */
  readonly method: HttpMethod
  /** Full URL of the request, query included (it never holds the key). */
  readonly url: string
  /** 1 for the first attempt, 2 for the first automatic retry, and so on. */
  readonly attempt: number
}

/** What {@link RequestHooks.onResponse} gets: one attempt, ended. */
export interface ResponseHookInfo extends RequestHookInfo {
  /** HTTP status of the answer; `null` when no answer came. */
  readonly status: number | null
  /** The answer's `X-Request-Id`; `null` when no answer came or it had none. */
  readonly requestId: string | null
  /** Milliseconds from sending the attempt to having its whole answer (or its failure). */
  readonly durationMs: number
  /**
   * Why no answer came: the {@link ConnectionError} or {@link TimeoutError} of the attempt (or the
   * reason of an aborted call's signal); `null` when an answer came, whatever its status.
   */
  readonly error: unknown
}

/**
 * Functions the client calls around each attempt of every call (retries included), given as
 * `new ResellerApi({ hooks })`. A hook that throws or rejects is reported through the client's
 * logger at `error` and never fails the call; a hook's promise is not awaited.
 */
export interface RequestHooks {
  /** Called before each attempt is sent. */
  onRequest?(info: RequestHookInfo): void | Promise<void>
  /** Called after each attempt: with its answer's status, or with the failure when none came. */
  onResponse?(info: ResponseHookInfo): void | Promise<void>
}

/** @internal Where a hook's failure is reported. */
export type HookFailureReport = (hook: keyof RequestHooks, error: unknown) => void

/** @internal Checks the `hooks` option: an object whose members, when given, are functions. */
export function checkHooks(hooks: unknown): RequestHooks | undefined {
  if (hooks === undefined) return undefined
  if (typeof hooks !== 'object' || hooks === null) {
    throw new TypeError('hooks must be an object: { onRequest?, onResponse? }')
  }
  const { onRequest, onResponse } = hooks as Record<string, unknown>
  for (const [name, hook] of [
    ['onRequest', onRequest],
    ['onResponse', onResponse],
  ] as const) {
    if (hook !== undefined && typeof hook !== 'function')
      throw new TypeError(`hooks.${name} must be a function`)
  }
  if (onRequest === undefined && onResponse === undefined) return undefined
  return hooks as RequestHooks
}

/** @internal Calls `hook` with `info`; a throw or a rejection goes to `report`, never to the caller. */
export function callHook<I>(
  name: keyof RequestHooks,
  hook: ((info: I) => void | Promise<void>) | undefined,
  info: I,
  report: HookFailureReport,
  self: RequestHooks,
): void {
  if (hook === undefined) return
  try {
    const result: unknown = hook.call(self, info)
    if (typeof (result as PromiseLike<void> | undefined)?.then === 'function') {
      ;(result as PromiseLike<void>).then(undefined, (error: unknown) => report(name, error))
    }
  } catch (error) {
    report(name, error)
  }
}
