/**
 * Reading an answer's body as text within the attempt's timeout. The transport reads it here
 * rather than through ky's `text()`, whose body timeout races two extra promises and a timer per
 * call: this reader's timer cancels the stream itself, which ends a fetch's download (a standard
 * `fetch` aborts the request when its body stream is cancelled), and the read stops at once.
 */

/** The body did not arrive in full within the timeout; the stream was cancelled. */
export class BodyTimeout extends Error {
  override readonly name = 'BodyTimeout'
}

/** Decodes UTF-8 as `Response.text()` does: invalid bytes become U+FFFD, a leading BOM is dropped. */
const utf8 = new TextDecoder()

/**
 * The body of `response` as text. Rejects with {@link BodyTimeout} when it is not complete within
 * `timeoutMs`, and with the stream's own error when the connection breaks mid-body.
 */
export async function readText(response: Response, timeoutMs: number): Promise<string> {
  const stream = response.body
  if (stream === null) return ''
  const reader = stream.getReader()
  let timedOut = false
  const timer = setTimeout(() => {
    timedOut = true
    // A pending read then resolves as done; the loop below sees `timedOut`.
    reader.cancel(new BodyTimeout('the body did not arrive in time')).catch(() => undefined)
  }, timeoutMs)
  try {
    // Most answers arrive in one chunk: it is decoded as is, without a copy.
    let first: Uint8Array | undefined
    let more: Uint8Array[] | undefined
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      if (first === undefined) first = value
      else if (more) more.push(value)
      else more = [first, value]
    }
    if (timedOut) throw new BodyTimeout('the body did not arrive in time')
    if (first === undefined) return ''
    return utf8.decode(more ? concat(more) : first)
  } catch (error) {
    throw timedOut ? new BodyTimeout('the body did not arrive in time') : error
  } finally {
    clearTimeout(timer)
  }
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
