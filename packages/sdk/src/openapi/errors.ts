/**
 * The error answers of an operation: which statuses, which codes, their schema and an example.
 *
 * The statuses follow from the operation's access rules (key → 401, scope → 403 `insufficient_scope`,
 * sandbox refusal → 403 `sandbox_read_only`, path parameters → 404, a JSON body → 415
 * `unsupported_media_type`, body or query or page → 422 `validation_error`, the WHM area → 422
 * `no_reseller_service` and 503 `whm_unavailable`), plus the standalone server's refusals (403
 * `forbidden_host`, `cross_origin`) and the business codes an operation lists.
 *
 * A fault set on the mock may answer any status with any snake_case code (docs/openapi.md,
 * "Faults"), so the code of a listed status is an open enum: the codes listed, or another
 * snake_case code. Validators then accept a fault's answer whichever status it lands on. Each
 * branch of the open enum says `type: string`: code generators read the branches alone, and an
 * untyped `pattern` branch became `unknown` (openapi-typescript: `string | "a" | unknown`).
 */
import { REF } from './schema-book.js'
import type { OperationSpec } from './spec.js'

type Json = Record<string, unknown>

/** What the code of a fault set on the mock looks like (docs/openapi.md, "Faults"). */
const CODE_PATTERN = '^[a-z][a-z0-9_]{0,63}$'

/** The error statuses of an operation and their codes, in the order the mock checks them. */
export function errorsOf(op: OperationSpec, hasParams: boolean): Map<number, string[]> {
  const out = new Map<number, string[]>()
  const add = (status: number, ...codes: string[]) => {
    const list = out.get(status) ?? []
    for (const code of codes) if (!list.includes(code)) list.push(code)
    out.set(status, list)
  }
  if (op.auth !== 'none') add(401, 'unauthenticated')
  if (op.scope) add(403, 'insufficient_scope')
  if (op.sandbox === 'refuse') add(403, 'sandbox_read_only')
  if (op.path.startsWith('/__mock')) add(403, 'forbidden_host', 'cross_origin')
  else add(403, 'forbidden_host')
  if (hasParams) add(404, 'not_found')
  if (op.body) add(415, 'unsupported_media_type')
  if (op.body || op.query || 'page' in op.answer) add(422, 'validation_error')
  if (op.scope === 'reseller:hosting') {
    add(422, 'no_reseller_service')
    add(503, 'whm_unavailable')
  }
  for (const [status, codes] of Object.entries(op.errors ?? {})) add(Number(status), ...codes)
  return new Map([...out].sort(([a], [b]) => a - b))
}

/**
 * The envelope with `code` one of `codes` or another snake_case code (a fault's). Written out whole
 * rather than as `allOf` with `ErrorBody`: a validator that closes objects for examples (Redocly's)
 * and code generators read one object.
 */
export function errorSchema(codes: string[]): Json {
  return {
    type: 'object',
    properties: {
      success: { type: 'boolean', const: false },
      error: {
        type: 'object',
        properties: {
          code: {
            type: 'string',
            anyOf: [
              { type: 'string', enum: codes },
              { type: 'string', pattern: CODE_PATTERN },
            ],
          },
          message: { type: 'string' },
          fields: { $ref: REF('FieldErrors') },
        },
        required: ['code', 'message'],
      },
    },
    required: ['success', 'error'],
  }
}

/** Messages the mock answers for each code, as its errors, its host guard and its faults write them. */
const MESSAGES: Record<string, string> = {
  unauthenticated: 'missing Authorization header: send "Authorization: Bearer <API key>"',
  insufficient_scope: 'this API key lacks the scope {scope} that this endpoint needs',
  sandbox_read_only: 'sandbox keys are read-only here: {operation} would change state; use a live key',
  forbidden_host:
    'the Host "evil.example" is not this server\'s: use localhost, 127.0.0.1 or [::1], or start the mock with --allowed-host evil.example (DNS-rebinding protection)',
  cross_origin:
    'the control endpoints answer pages of their own origin only; this request came from "https://evil.example"',
  not_found: 'not found',
  unsupported_media_type:
    'the body must be JSON, sent with "Content-Type: application/json" (got "text/plain;charset=UTF-8")',
  validation_error: 'invalid request: body: must be valid JSON',
  no_reseller_service: 'no active reseller service with WHM access is assigned to this account',
  whm_unavailable: 'the WHM server is not reachable; try again later',
  invalid_state: 'this action does not apply to the resource in its current state',
  quota_exceeded: 'the WHM plan allows 10 accounts and all are in use',
  domain_taken: 'the domain example.com is already used by another cPanel account',
  insufficient_funds: 'the wallet balance (4.5) is below the domain registration price (12.99)',
}

/** An example answer of `status`: its first code, with the mock's message for it. */
export function errorExample(op: OperationSpec, codes: string[]): Json {
  const code = codes[0]!
  const message = (MESSAGES[code] ?? code.replaceAll('_', ' '))
    .replace('{scope}', op.scope ?? '')
    // The mock names the route as its table writes it: `:name` parameters.
    .replace('{operation}', `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`)
  return {
    success: false,
    error: {
      code,
      message,
      ...(code === 'validation_error' ? { fields: { body: ['must be valid JSON'] } } : {}),
    },
  }
}

/** The example of the `default` answer: what a fault answering 503 sends. */
export const FAULT_EXAMPLE: Json = {
  success: false,
  error: { code: 'service_unavailable', message: 'service unavailable (answered by a fault of the mock)' },
}
