/**
 * Errors of Node's HTTP parser (a malformed request line, headers too large, a
 * request that never finished arriving) are answered with the spec's error envelope, not Node's
 * empty-bodied default, whenever the connection still allows an answer.
 */
import type { ServerResponse } from 'node:http'
import type { Socket } from 'node:net'
import { ApiError } from '../../errors.js'
import { renderError } from '../../routing/errors.js'
import { http } from './builtins.js'

/** The answer to a parser error: status, `error.code` and a message saying what was wrong. */
export function clientErrorAnswer(error: NodeJS.ErrnoException): ApiError {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return new ApiError(431, 'headers_too_large', 'the request headers are larger than the server accepts')
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return new ApiError(413, 'validation_error', 'the chunk extensions of the request body are too large')
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return new ApiError(408, 'request_timeout', 'the request did not arrive in time')
    default:
      return new ApiError(
        400,
        'bad_request',
        `the request is not valid HTTP/1.1${error.code?.startsWith('HPE_') ? ` (${error.code})` : ''}`,
      )
  }
}

/**
 * The `clientError` listener of the standalone server. Answers with the statuses of Node's own
 * default, but with a JSON body, then ends the connection: after a parse error nothing further on
 * it can be trusted. An answer still being produced for an earlier request of the same connection
 * (keep-alive, pipelined) is finished first: writing in the middle of it would corrupt both.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (inFlight && !inFlight.writableFinished) {
    if (!inFlight.req.complete) {
      // The error is in that request's own body (a bad chunk, a connection ended short): its
      // answer has not started, and this is it. The handler then finds the answer sent.
      if (inFlight.headersSent) socket.destroy()
      else {
        const apiError = clientErrorAnswer(error)
        const body = renderError(apiError).body
        inFlight.shouldKeepAlive = false
        inFlight.writeHead(apiError.status, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        })
        inFlight.end(body)
      }
      return
    }
    inFlight.once('finish', () => writeAnswer(error, socket))
    inFlight.once('close', () => {
      if (!inFlight.writableFinished) socket.destroy()
    })
    return
  }
  writeAnswer(error, socket)
}

function writeAnswer(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy()
    return
  }
  const apiError = clientErrorAnswer(error)
  const body = Buffer.from(renderError(apiError).body)
  const head =
    `HTTP/1.1 ${apiError.status} ${http.STATUS_CODES[apiError.status] ?? 'Error'}\r\n` +
    'Content-Type: application/json\r\n' +
    `Content-Length: ${body.length}\r\n` +
    'Connection: close\r\n\r\n'
  socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]))
}
