/**
 * What `reseller-mock record` takes out before an exchange reaches the cassette
 * (docs/keeping-the-mock-honest.md, "Record and replay"): the key of each request becomes its
 * mode, `secret` fields become `"[redacted]"`, and so does any string shaped like an API key,
 * wherever it appears. `replay` puts the mock's answers through the same functions, so a redacted
 * value compares equal to the value it hides.
 */
import { keyMode } from '@reseller-api/sdk/schemas'

/** What every hidden value becomes. */
export const REDACTED = '[redacted]'

/** The `Authorization` of a request made with a key other than the recorded one, by its mode. */
export const OTHER_KEY = { live: 'live (another key)', sandbox: 'sandbox (another key)' } as const

/** Any API key inside a string: the whole string is hidden. */
const KEY_INSIDE = /svc_(?:live|test)_[A-Za-z0-9_-]+/

/** Request headers that carry credentials of other kinds. */
const CREDENTIAL_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization', 'x-api-key'])

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function redactValue(value: Json, key: string | undefined): { value: Json; changed: boolean } {
  if (key === 'secret' && value !== null && value !== REDACTED) return { value: REDACTED, changed: true }
  if (typeof value === 'string') {
    return KEY_INSIDE.test(value) ? { value: REDACTED, changed: true } : { value, changed: false }
  }
  if (Array.isArray(value)) {
    let changed = false
    const items = value.map((item) => {
      const out = redactValue(item, undefined)
      changed ||= out.changed
      return out.value
    })
    return { value: changed ? items : value, changed }
  }
  if (value !== null && typeof value === 'object') {
    let changed = false
    // Object.fromEntries keeps a `__proto__` member a member (ARCHITECTURE.md, "Safety").
    const entries = Object.entries(value).map(([name, member]) => {
      const out = redactValue(member, name)
      changed ||= out.changed
      return [name, out.value] as const
    })
    return { value: changed ? Object.fromEntries(entries) : value, changed }
  }
  return { value, changed: false }
}

/** `value` with every `secret` member and every key-shaped string replaced by {@link REDACTED}. */
export function redactJson<T>(value: T): T {
  return redactValue(value as Json, undefined).value as T
}

/**
 * A body as the cassette keeps it: JSON text with its secrets and keys hidden (re-serialized only
 * when something was hidden, so an untouched body keeps its bytes); any other text with its keys
 * hidden.
 */
export function redactBodyText(text: string): string {
  let parsed: Json
  try {
    parsed = JSON.parse(text) as Json
  } catch {
    return text.replace(new RegExp(KEY_INSIDE, 'g'), REDACTED)
  }
  const out = redactValue(parsed, undefined)
  return out.changed ? JSON.stringify(out.value) : text
}

/**
 * The cassette's `authorization`: the mode of the recorded key (`live`, `sandbox`); the mode and
 * "another key" for any other key; {@link REDACTED} for a value that holds no API key.
 */
export function authorizationLabel(value: string, recordedKey: string): string {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1]
  const mode = token === undefined ? undefined : keyMode(token)
  if (token === undefined || mode === undefined) return REDACTED
  return token === recordedKey ? mode : OTHER_KEY[mode]
}

/** A header value as the cassette keeps it (names in lower case). */
export function redactHeader(name: string, value: string, recordedKey: string): string {
  if (name === 'authorization') return authorizationLabel(value, recordedKey)
  if (CREDENTIAL_HEADERS.has(name)) return REDACTED
  return KEY_INSIDE.test(value) ? REDACTED : value
}
