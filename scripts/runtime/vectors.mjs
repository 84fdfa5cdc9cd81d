// Cross-runtime check of the packed @reseller-api/sdk/webhooks: the same plain ES module runs
// unchanged under Node, Bun and Deno (scripts/runtime-check.sh), from a fresh npm project where
// the SDK tarball is installed.
//
//   <runtime> vectors.mjs <vectors.json> <expected runtime: node | bun | deno>
//
// It checks two modules:
//   - the package specifier `@reseller-api/sdk/webhooks`, resolved by the runtime's own export
//     conditions (the `node` condition picks dist/webhooks/node.js, node:crypto; else the
//     default dist/webhooks/index.js, Web Crypto);
//   - the default Web Crypto entry imported by its path, so that it runs in every runtime too.
// For each: every fixed vector signs to its expected header and verifies; a one-byte-changed body,
// a wrong secret and malformed headers resolve false without throwing; constructEvent parses a
// signed event and rejects a forged one; createFetchHandler answers a real Request 200 (signed)
// or 401 (forged); a secret array verifies with the signing secret at any position; a signed event
// of a type the SDK does not know is a WebhookUnknownEventError, answered 200 by the handler; with
// `dedupe`, a copy is answered 200 without onEvent and a failed delivery's retry is handled. Prints
// which file the package specifier resolved to, and exits 1 on any failure.
import { readFileSync } from 'node:fs'
import process from 'node:process'
import * as fromPackage from '@reseller-api/sdk/webhooks'
import * as webEntry from './node_modules/@reseller-api/sdk/dist/webhooks/index.js'
import * as nodeEntry from './node_modules/@reseller-api/sdk/dist/webhooks/node.js'

const [vectorsPath, expectedRuntime] = process.argv.slice(2)
if (!vectorsPath || !expectedRuntime) {
  console.error('usage: <runtime> vectors.mjs <webhook-vectors.json> <node|bun|deno>')
  process.exit(2)
}

const runtime = globalThis.Deno
  ? `deno ${globalThis.Deno.version.deno}`
  : globalThis.Bun
    ? `bun ${globalThis.Bun.version}`
    : `node ${process.versions.node}`
const failures = []
let passed = 0
function check(label, ok, detail = '') {
  if (ok) passed++
  else failures.push(detail ? `${label}: ${detail}` : label)
}
check('runtime', runtime.startsWith(`${expectedRuntime} `), `expected ${expectedRuntime}, running ${runtime}`)

// Which file the package specifier resolved to: a module evaluates once per resolved URL, so its
// namespace is the very object the path import of that file gives.
const resolvedTo =
  fromPackage === nodeEntry
    ? 'node (dist/webhooks/node.js, node:crypto)'
    : fromPackage === webEntry
      ? 'web (dist/webhooks/index.js, Web Crypto)'
      : 'unknown (neither path import gives the same module)'
let resolvedUrl = 'import.meta.resolve unavailable'
try {
  resolvedUrl = import.meta.resolve('@reseller-api/sdk/webhooks')
} catch (error) {
  resolvedUrl = `import.meta.resolve threw: ${error}`
}
check('the package specifier resolves to one of the two entries', !resolvedTo.startsWith('unknown'))

const { vectors } = JSON.parse(readFileSync(vectorsPath, 'utf8'))
check('vectors loaded', Array.isArray(vectors) && vectors.length > 0, vectorsPath)

const utf8 = new TextEncoder()
const HEX64 = 'a'.repeat(64)
/** Header values that must resolve false, built around a vector's real signature. */
function malformedHeaders(signature) {
  const hex = signature.slice('sha256='.length)
  return [
    ['null', null],
    ['undefined', undefined],
    ['empty', ''],
    ['prefix only', 'sha256='],
    ['bare hex, no prefix', hex],
    ['63 hex digits', `sha256=${hex.slice(0, 63)}`],
    ['65 hex digits', `sha256=${hex}0`],
    ['non-hex digit', `sha256=${hex.slice(0, 63)}g`],
    ['sha1 prefix', `sha1=${hex.slice(0, 40)}`],
    ['sha512 prefix on the right MAC', `sha512=${hex}`],
    ['leading space', ` ${signature}`],
    ['trailing newline', `${signature}\n`],
    ['two signatures', `${signature},sha256=${HEX64}`],
    ['1 MB header', `sha256=${'a'.repeat(1 << 20)}`],
    ['not a string', 42],
  ]
}

/** The body with one byte changed (a byte appended when it is empty). */
function tampered(payload) {
  const bytes = utf8.encode(payload)
  if (bytes.length === 0) return new Uint8Array([0x20])
  const copy = bytes.slice()
  copy[copy.length >> 1] ^= 0x01
  return copy
}

/** A well-formed header with the wrong MAC: the last hex digit of the right one changed. */
function forged(signature) {
  return signature.slice(0, -1) + (signature.endsWith('0') ? '1' : '0')
}

async function settle(promiseOrValue) {
  try {
    return { value: await promiseOrValue }
  } catch (error) {
    return { error }
  }
}

async function checkEntry(name, api) {
  const at = (label) => `[${name}] ${label}`
  for (const vector of vectors) {
    const v = (label) => at(`${vector.name}: ${label}`)
    const signed = await settle(api.signPayload(vector.payload, vector.secret))
    check(v('signPayload(string)'), signed.value === vector.signature, `got ${signed.value ?? signed.error}`)
    const signedBytes = await settle(api.signPayload(utf8.encode(vector.payload), vector.secret))
    check(
      v('signPayload(Uint8Array)'),
      signedBytes.value === vector.signature,
      `got ${signedBytes.value ?? signedBytes.error}`,
    )
    check(
      v('verifySignature'),
      (await api.verifySignature(vector.payload, vector.signature, vector.secret)) === true,
    )
    check(
      v('verifySignature, bytes and upper-case hex'),
      (await api.verifySignature(
        utf8.encode(vector.payload),
        `sha256=${vector.signature.slice(7).toUpperCase()}`,
        vector.secret,
      )) === true,
    )
    check(
      v('one byte changed: false'),
      (await api.verifySignature(tampered(vector.payload), vector.signature, vector.secret)) === false,
    )
    check(
      v('wrong secret: false'),
      (await api.verifySignature(vector.payload, vector.signature, `${vector.secret}x`)) === false,
    )
    check(
      v('forged MAC, well-formed: false'),
      (await api.verifySignature(vector.payload, forged(vector.signature), vector.secret)) === false,
    )
    check(
      v('empty secret: false'),
      (await api.verifySignature(vector.payload, vector.signature, '')) === false,
    )
    for (const [label, header] of malformedHeaders(vector.signature)) {
      let outcome
      try {
        outcome = await settle(api.verifySignature(vector.payload, header, vector.secret))
      } catch (error) {
        outcome = { error: `threw synchronously: ${error}` }
      }
      check(
        v(`malformed header (${label}): resolves false`),
        outcome.value === false,
        outcome.error ? `rejected ${outcome.error}` : `resolved ${outcome.value}`,
      )
    }
  }

  // constructEvent and createFetchHandler on the vectors that are events.
  const events = vectors.filter((vector) => vector.payload.startsWith('{"event"'))
  check(at('event vectors present'), events.length >= 2, `found ${events.length}`)
  for (const vector of events) {
    const v = (label) => at(`${vector.name}: ${label}`)
    const expected = JSON.parse(vector.payload)
    const event = await settle(api.constructEvent(vector.payload, vector.signature, vector.secret))
    check(
      v('constructEvent'),
      event.value?.event === expected.event &&
        JSON.stringify(event.value?.data) === JSON.stringify(expected.data),
      `got ${event.error ?? JSON.stringify(event.value)}`,
    )
    const rejected = await settle(api.constructEvent(vector.payload, forged(vector.signature), vector.secret))
    check(
      v('constructEvent, forged signature: WebhookVerificationError'),
      api.isWebhookVerificationError(rejected.error),
      `got ${rejected.error ?? 'no error'}`,
    )

    const received = []
    const handler = api.createFetchHandler({
      secret: vector.secret,
      onEvent: (event) => {
        received.push(event)
      },
    })
    const post = (signature) =>
      new Request('https://receiver.example/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [api.SIGNATURE_HEADER]: signature },
        body: vector.payload,
      })
    const good = await settle(handler(post(vector.signature)))
    check(
      v('createFetchHandler, signed: 200'),
      good.value?.status === 200,
      `got ${good.value?.status ?? good.error}`,
    )
    check(
      v('createFetchHandler, signed: onEvent called once with the event'),
      received.length === 1 && received[0].event === expected.event,
      `received ${JSON.stringify(received)}`,
    )
    const bad = await settle(handler(post(forged(vector.signature))))
    check(
      v('createFetchHandler, forged: 401'),
      bad.value?.status === 401,
      `got ${bad.value?.status ?? bad.error}`,
    )
    check(v('createFetchHandler, forged: onEvent not called'), received.length === 1)

    // Several secrets: any one verifies, none or an empty array does not.
    const other = `${vector.secret}-other`
    check(
      v('verifySignature, secret array, signing secret second: true'),
      (await api.verifySignature(vector.payload, vector.signature, [other, vector.secret])) === true,
    )
    check(
      v('verifySignature, secret array without the signing secret: false'),
      (await api.verifySignature(vector.payload, vector.signature, [other])) === false,
    )
    check(
      v('verifySignature, empty secret array: false'),
      (await api.verifySignature(vector.payload, vector.signature, [])) === false,
    )
    const rotating = api.createFetchHandler({ secret: [other, vector.secret], onEvent: () => {} })
    const rotated = await settle(rotating(post(vector.signature)))
    check(
      v('createFetchHandler, secret array: 200'),
      rotated.value?.status === 200,
      `got ${rotated.value?.status ?? rotated.error}`,
    )

    // dedupe: a copy is answered 200 without onEvent, its key the SHA-256 of the body (node:crypto's
    // createHash, or Web Crypto's digest), and a failed delivery's retry is handled.
    const keys = []
    let calls = 0
    const once = api.createFetchHandler({
      secret: vector.secret,
      dedupe: {
        claim: async (key) => !keys.includes(key) && keys.push(key) > 0,
        release: (key) => void keys.splice(keys.indexOf(key), 1),
      },
      onEvent: () => {
        calls++
        if (calls === 1) throw new Error('first attempt fails')
      },
      onError: () => {},
    })
    const dedupeAnswers = []
    for (let i = 0; i < 3; i++) dedupeAnswers.push((await settle(once(post(vector.signature)))).value?.status)
    const digest = Array.from(
      new Uint8Array(await crypto.subtle.digest('SHA-256', utf8.encode(vector.payload))),
      (byte) => byte.toString(16).padStart(2, '0'),
    ).join('')
    check(
      v('createFetchHandler, dedupe: 500, the retry 200, the copy 200 without onEvent; key = SHA-256'),
      dedupeAnswers.join() === '500,200,200' && calls === 2 && keys.length === 1 && keys[0] === digest,
      `got ${dedupeAnswers}, ${calls} calls, keys ${keys}`,
    )

    // The same envelope under a name this SDK version does not know: a service that grew.
    const unknownBody = JSON.stringify({ ...expected, event: 'vps.migrated' })
    const unknownSignature = await api.signPayload(unknownBody, vector.secret)
    const unknown = await settle(api.constructEvent(unknownBody, unknownSignature, vector.secret))
    check(
      v('constructEvent, unknown event type: WebhookUnknownEventError'),
      api.isWebhookUnknownEventError(unknown.error) && unknown.error.eventName === 'vps.migrated',
      `got ${unknown.error ?? JSON.stringify(unknown.value)}`,
    )
    const warnings = []
    const warn = console.warn
    console.warn = (...args) => warnings.push(args)
    const skipped = []
    const lenient = api.createFetchHandler({ secret: vector.secret, onEvent: (event) => skipped.push(event) })
    const unknownRequest = () =>
      new Request('https://receiver.example/webhooks', {
        method: 'POST',
        headers: { 'content-type': 'application/json', [api.SIGNATURE_HEADER]: unknownSignature },
        body: unknownBody,
      })
    const answers = [await settle(lenient(unknownRequest())), await settle(lenient(unknownRequest()))]
    console.warn = warn
    check(
      v('createFetchHandler, unknown event type twice: 200, onEvent not called, one warning'),
      answers.every((answer) => answer.value?.status === 200) &&
        skipped.length === 0 &&
        warnings.length === 1,
      `got ${answers.map((answer) => answer.value?.status ?? answer.error)}, ${skipped.length} events, ${warnings.length} warnings`,
    )
  }
}

await checkEntry('@reseller-api/sdk/webhooks', fromPackage)
await checkEntry('dist/webhooks/index.js (Web Crypto)', webEntry)

console.log(`runtime: ${runtime}`)
console.log(`resolved: @reseller-api/sdk/webhooks -> ${resolvedTo}`)
console.log(`import.meta.resolve: ${resolvedUrl}`)
if (failures.length > 0) {
  console.error(`${failures.length} check(s) failed under ${runtime}:`)
  for (const failure of failures) console.error(`  FAIL ${failure}`)
  process.exit(1)
}
console.log(`checks: ${passed} passed on 2 entries, ${vectors.length} vectors`)
