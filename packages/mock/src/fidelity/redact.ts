/**
 * `reseller-mock import --redact`: personal text replaced by placeholders of the same shape. A
 * letter stays a letter of the same case, a digit a digit, everything else is kept, so lengths,
 * dots of domains and `@` of emails survive and every rule of the seed still holds. The
 * replacement is a function of the text alone: the same subject or domain always gives the same
 * placeholder, run after run.
 */

/** FNV-1a of `text`: the seed of its placeholder. */
function hash(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

/** xorshift32: the letters of a placeholder, one after the other. */
function stream(seed: number): () => number {
  let x = seed || 1
  return () => {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    return (x >>> 0) / 0x1_0000_0000
  }
}

const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'

/** `text` with each letter and digit replaced, shape kept. */
export function scramble(text: string): string {
  const next = stream(hash(text))
  let out = ''
  for (const c of text) {
    if (c >= 'a' && c <= 'z') out += LOWER[Math.floor(next() * 26)]
    else if (c >= 'A' && c <= 'Z') out += LOWER[Math.floor(next() * 26)]!.toUpperCase()
    else if (c >= '0' && c <= '9') out += DIGITS[Math.floor(next() * 10)]
    else if (/\p{L}/u.test(c)) out += LOWER[Math.floor(next() * 26)]
    else out += c
  }
  return out
}

/** A domain with each label but the last scrambled: `acme-shop.com` → `qwzt-ghsl.com`. */
export function scrambleDomain(domain: string): string {
  const labels = domain.split('.')
  const tld = labels.pop() ?? ''
  // A label may not start with a hyphen; a scrambled one keeps the first character's class.
  return [...labels.map((label) => scramble(label)), tld].join('.')
}

/** A cPanel username scrambled: still starts with a letter, still `[a-z0-9_]`. */
export function scrambleUsername(username: string): string {
  return scramble(username).toLowerCase()
}
