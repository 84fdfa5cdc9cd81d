#!/usr/bin/env node
// A code generator nobody here wrote reads the published OpenAPI document, and the types it makes
// agree with the SDK's own (CI, .ci/run, after `pnpm run openapi-check`; docs/openapi.md, "Tools
// that read it"):
// - openapi-typescript turns packages/sdk/openapi.json into TypeScript, as a user of openapi-fetch
//   or of any typed client generated from the document would;
// - for every operation the SDK declares (packages/sdk/src/operations/), a line states that the
//   generated type of its success answer's `data` (and `meta` for a page) and of its request body
//   is the same type, both ways, as the SDK's (the output of the declaration's answer schema, the
//   input of its body schema);
// - for every event the SDK knows, in its style, a line states that the generated request body of
//   its `webhooks` entry is the SDK's type of that event (and the document has no other entry);
// - tsc checks those lines. A field, a null, an optional or an enum value the document and the SDK
//   disagree on fails the check, naming the operation and showing both types.
//
// - the error answers too: for every operation of the document and every error status it lists,
//   the generated `error.code` is `string` (openapi-fetch's `error` is the union of these bodies:
//   an `unknown` there loses the type of every error), and its declared type still names each
//   code the document lists for that status, for editors to offer.
//
// The lines are written from the declarations at run time: a new operation is checked without an
// edit here. Needs `pnpm build` first (packages/sdk/dist). Exit code 1 on any disagreement.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import openapiTS, { astToString } from 'openapi-typescript'
import ts from 'typescript'

const root = fileURLToPath(new URL('..', import.meta.url))
const sdkDir = join(root, 'packages/sdk')
const document = JSON.parse(readFileSync(join(sdkDir, 'openapi.json'), 'utf8'))
const { API_BASE, GENERAL_EVENTS, RESELLER_EVENTS, operations, wirePath } = await import(
  pathToFileURL(join(sdkDir, 'dist/schemas/index.js')).href
)

const lines = []
let checked = 0
for (const [area, declarations] of Object.entries(operations)) {
  for (const [name, ep] of Object.entries(declarations)) {
    const path = API_BASE + wirePath(ep)
    const id = document.paths[path]?.[ep.method.toLowerCase()]?.operationId
    if (!id) {
      console.error(`openapi-types-check: ${area}.${name} (${ep.method} ${path}) is not in the document`)
      process.exit(1)
    }
    const [documented, declared] = [`Success<'${id}', ${ep.status}>`, `typeof sdk.${area}.${name}`]
    lines.push(
      `export const ${id}Data: Part<Field<${documented}, 'data'>, Field<Answer<${declared}>, 'data'>, '${id} data'> = true`,
      `export const ${id}Meta: Part<Field<${documented}, 'meta'>, Field<Answer<${declared}>, 'meta'>, '${id} meta'> = true`,
      `export const ${id}Body: Part<RequestBody<'${id}'>, Body<${declared}>, '${id} body'> = true`,
    )
    checked++
  }
}

// The events (`webhooks`): every event of the SDK, in its style, is an entry whose generated request
// body is the SDK's type of that event (`Extract<ResellerEvent, { event }>`), both ways; the
// document has no other entry. `test` is the general test event.
const events = [
  ...RESELLER_EVENTS.map((event) => ({ style: 'reseller', union: 'ResellerEvent', event })),
  ...[...GENERAL_EVENTS, 'test'].map((event) => ({ style: 'general', union: 'GeneralEvent', event })),
]
const eventKeys = new Set(events.map(({ style, event }) => `${style}/${event}`))
const strayEntries = Object.keys(document.webhooks ?? {}).filter((key) => !eventKeys.has(key))
if (strayEntries.length > 0) {
  console.error(`openapi-types-check: webhooks entries the SDK has no event for: ${strayEntries.join(', ')}`)
  process.exit(1)
}
for (const { style, union, event } of events) {
  const key = `${style}/${event}`
  if (!document.webhooks?.[key]?.post) {
    console.error(`openapi-types-check: the ${style}-style event ${event} is not in the document's webhooks`)
    process.exit(1)
  }
  const name = key.replace(/[^A-Za-z0-9]+/g, '_')
  lines.push(
    `export const ${name}: Part<WebhookBody<'${key}'>, Extract<sdkEvents.${union}, { event: '${event}' }>, '${key} body'> = true`,
  )
}

// The error answers: every operation of the document, every 4xx/5xx status and `default`.
/** The codes a status lists: the `enum` of its open enum (none for `default`, any code). */
const listedCodes = (schema) =>
  (schema?.properties?.error?.properties?.code?.anyOf ?? []).flatMap((branch) => branch.enum ?? [])
const errorAnswers = []
for (const item of Object.values(document.paths)) {
  for (const operation of Object.values(item)) {
    if (!operation?.operationId) continue
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      if (status !== 'default' && Number(status) < 400) continue
      const schema = response.content?.['application/json']?.schema
      const resolved = schema?.$ref ? document.components.schemas[schema.$ref.split('/').pop()] : schema
      errorAnswers.push({ id: operation.operationId, status, codes: listedCodes(resolved) })
    }
  }
}
for (const { id, status } of errorAnswers) {
  const key = status === 'default' ? "'default'" : status
  lines.push(
    `export const ${id}Error${status}: Code<ErrorAnswer<'${id}', ${key}>, '${id} ${status} error.code'> = true`,
  )
}

const agreement = `// Written by scripts/openapi-types-check.mjs: three lines per operation the SDK declares, one per event, one per error answer.
import type * as z from 'zod/mini'
import type { operations as sdk } from '../src/operations/index.js'
import type * as sdkEvents from '../src/schemas/events.js'
import type { operations as doc, webhooks } from './document.js'

/** \`true\` when A and B are the same type (each assignable to the other). */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Json<R> = R extends { content: { 'application/json': infer J } } ? J : never
type Success<Id extends keyof doc, S extends number> = Json<doc[Id]['responses'][S & keyof doc[Id]['responses']]>
type RequestBody<Id extends keyof doc> = Json<NonNullable<doc[Id]['requestBody']>>
type WebhookBody<K extends keyof webhooks> = Json<NonNullable<NonNullable<webhooks[K]['post']>['requestBody']>>
type Answer<E> = E extends { readonly envelope: z.ZodMiniType<infer A> } ? A : never
type Body<E> = E extends { readonly body: infer B } ? (B extends z.ZodMiniType ? z.input<B> : never) : never
type Field<T, K extends string> = T extends { [P in K]: infer V } ? V : never
/** \`true\`, or (failing its line) the part the document and the SDK disagree on, with both types. */
type Part<Document, Sdk, Name extends string> = Same<Document, Sdk> extends true
  ? true
  : { [K in Name]: { document: Document; sdk: Sdk } }
type ErrorAnswer<Id extends keyof doc, S extends string | number> = Json<doc[Id]['responses'][S & keyof doc[Id]['responses']]>
/** \`true\` when the error body's \`error.code\` is \`string\`; otherwise (failing its line) the type it has. */
type Code<Body, Name extends string> = Body extends { error: { code: infer C } }
  ? Same<C, string> extends true
    ? true
    : { [K in Name]: { generated: C; expected: string } }
  : { [K in Name]: { generated: Body; expected: '{ error: { code: string } }' } }

${lines.join('\n')}
`

// Inside the SDK package, so that zod and the SDK's sources resolve as they do for its own tests.
const dir = mkdtempSync(join(sdkDir, '.openapi-types-'))
/** A member of a type literal of the generated source (\`responses\`, \`404\`, \`"application/json"\`…). */
function member(node, name) {
  if (!node || !ts.isTypeLiteralNode(node)) return undefined
  const found = node.members.find((m) => ts.isPropertySignature(m) && m.name.text === String(name))
  return found?.type
}

/** The string literals a type node names (\`string | ("a" | "b")\` → a, b). */
function literals(node, out = new Set()) {
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) out.add(node.literal.text)
  // forEachChild stops at the first callback that returns a value: this one returns none.
  ts.forEachChild(node, (child) => {
    literals(child, out)
  })
  return out
}

/** Error answers whose generated \`error.code\` does not name every code the document lists. */
function codesNotOffered(source) {
  const file = ts.createSourceFile('document.ts', source, ts.ScriptTarget.Latest)
  const operations = file.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === 'operations')
  const problems = []
  for (const { id, status, codes } of errorAnswers) {
    if (codes.length === 0) continue
    const operation = operations?.members.find((m) => m.name?.text === id)?.type
    const body = member(member(member(member(operation, 'responses'), status), 'content'), 'application/json')
    const code = member(member(body, 'error'), 'code')
    const offered = code ? literals(code) : new Set()
    const missing = codes.filter((c) => !offered.has(c))
    if (missing.length > 0) problems.push(`${id} ${status}: error.code offers no ${missing.join(', ')}`)
  }
  return problems
}

try {
  const generated = astToString(await openapiTS(document))
  const notOffered = codesNotOffered(generated)
  if (notOffered.length > 0) {
    console.error(
      `openapi-types-check: the generated error types drop codes the document lists:\n${notOffered.join('\n')}`,
    )
    process.exitCode = 1
  }
  writeFileSync(join(dir, 'document.ts'), generated)
  writeFileSync(join(dir, 'agreement.ts'), agreement)
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ extends: '../../../tsconfig.base.json', include: ['*.ts'] }),
  )
  try {
    execFileSync(join(root, 'node_modules/.bin/tsc'), ['-p', dir, '--noErrorTruncation'], {
      stdio: 'pipe',
      encoding: 'utf8',
    })
  } catch (error) {
    console.error(`openapi-types-check: the generated types and the SDK's disagree:\n${error.stdout}`)
    process.exitCode = 1
  }
  if (!process.exitCode) {
    console.log(
      `openapi-types-check: openapi-typescript's types of ${checked} operations agree with the SDK's (answers, pages, bodies), and of ${events.length} events (webhooks) with the SDK's event types; error.code is a string naming the listed codes in ${errorAnswers.length} error answers`,
    )
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
