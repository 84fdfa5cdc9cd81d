/**
 * Reading an answer's body as text. The transport reads it inside ky's call, in the `fetch` it
 * gives ky (core/transport.ts), so that ky's per-attempt timeout covers the body too: one timer per
 * attempt, and a body that stalls ends with the attempt's `AbortSignal` (a standard `fetch` aborts
 * the download with it). Read here rather than through `Response.text()`: one chunk, the usual
 * answer, is decoded as it is, without the copies of undici's body consumption.
 */

/** Decodes UTF-8 as `Response.text()` does: invalid bytes become U+FFFD, a leading BOM is dropped. */
const utf8 = new TextDecoder()

/** The body of `response` as text; rejects with the stream's own error when it breaks mid-body. */
export async function readText(response: Response): Promise<string> {
  const stream = response.body
  if (stream === null) return ''
  const reader = stream.getReader()
  let first: Uint8Array | undefined
  let more: Uint8Array[] | undefined
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    if (first === undefined) first = value
    else if (more) more.push(value)
    else more = [first, value]
  }
  if (first === undefined) return ''
  return utf8.decode(more ? concat(more) : first)
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  let size = 0
  for (const chunk of chunks) size += chunk.byteLength
  const bytes = new Uint8Array(size)
  let offset = 0
  for (const chunk of chunks) {
    bytes.set(chunk, offset)
    offset += chunk.byteLength
  }
  return bytes
}
