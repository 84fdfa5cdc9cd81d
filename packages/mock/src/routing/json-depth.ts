/**
 * How deep a JSON text nests. `JSON.parse` copes with any depth, but everything after it that
 * walks the value recursively (`JSON.stringify` of an answer, of the state file, of a delivery;
 * `structuredClone`) overflows the stack a few thousand levels down. No body of the API nests
 * more than four levels, so request bodies are refused well before that.
 */

/** Deepest nesting of arrays and objects a request body may have. */
export const MAX_JSON_DEPTH = 64

/**
 * Whether `text` nests arrays and objects more than `max` levels deep. One pass over the text,
 * brackets inside strings skipped; malformed text is left to `JSON.parse` to refuse.
 */
export function nestsDeeperThan(text: string, max: number = MAX_JSON_DEPTH): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92 /* \ */) i++
      else if (c === 34 /* " */) inString = false
    } else if (c === 34) {
      inString = true
    } else if (c === 91 /* [ */ || c === 123 /* { */) {
      if (++depth > max) return true
    } else if (c === 93 /* ] */ || c === 125 /* } */) {
      depth--
    }
  }
  return false
}
