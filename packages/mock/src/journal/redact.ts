/**
 * What the journal never shows: secrets. A webhook secret travels in request bodies
 * (`PUT /reseller/webhook`) and answers (`POST /webhooks` hands out the generated one), and a key
 * may be sent in the query string by a client that does so. The journal is read by tests, the
 * inspector page and anyone who can reach `GET /__mock/requests`, so these values are replaced
 * by {@link REDACTED} when an entry is listed. See docs/faults-and-journal.md, "Secrets".
 */

/** What a redacted value is replaced by. */
export const REDACTED = '[redacted]'

/** JSON fields whose value is a secret, at any depth of a request or answer body. */
const SECRET_FIELD = 'secret'

/**
 * Query parameter names whose value is a credential, compared in lower case with `-` read as `_`.
 * Besides these, any name ending in `_key`, `_token` or `_secret` (`client_secret`, `id_token`).
 */
export const SECRET_QUERY_NAMES: ReadonlySet<string> = new Set([
  'key',
  'apikey',
  'api_key',
  'token',
  'access_token',
  'auth',
  'authorization',
  'bearer',
  'secret',
  'password',
  'passwd',
  'signature',
])
const SECRET_QUERY_SUFFIXES = ['_key', '_token', '_secret']

/** Whether a query parameter named `name` carries a credential. */
export function isSecretQueryName(name: string): boolean {
  let normalized: string
  try {
    normalized = decodeURIComponent(name.replace(/\+/g, ' '))
  } catch {
    normalized = name
  }
  normalized = normalized.trim().toLowerCase().replace(/-/g, '_')
  return (
    SECRET_QUERY_NAMES.has(normalized) || SECRET_QUERY_SUFFIXES.some((suffix) => normalized.endsWith(suffix))
  )
}

/**
 * The query string (with its `?`, or `''`) with the value of every credential-named parameter
 * replaced by {@link REDACTED}; everything else stays as sent.
 */
export function redactQuery(search: string): string {
  if (search.length < 2) return search
  const parts = search.slice(1).split('&')
  let changed = false
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!
    const eq = part.indexOf('=')
    const name = eq === -1 ? part : part.slice(0, eq)
    if (eq !== -1 && eq < part.length - 1 && isSecretQueryName(name)) {
      parts[i] = `${name}=${REDACTED}`
      changed = true
    }
  }
  return changed ? `?${parts.join('&')}` : search
}

/**
 * `value` (parsed JSON, owned by the caller) with every `secret` field's value replaced by
 * {@link REDACTED}, in place, at any depth. Bodies are at most 64 levels deep (checked before
 * they are parsed), so the recursion is bounded.
 */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) {
    for (const item of value) redactSecrets(item)
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>
    for (const key of Object.keys(record)) {
      if (key === SECRET_FIELD && record[key] !== null) record[key] = REDACTED
      else redactSecrets(record[key])
    }
  }
  return value
}
