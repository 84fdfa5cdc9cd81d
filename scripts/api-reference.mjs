#!/usr/bin/env node
// Renders the OpenAPI document (packages/sdk/openapi.json, from `pnpm build`) into one
// self-contained HTML page, docs/api-reference/index.html (not committed): operations by tag with
// their parameters, bodies, answers, schemas and captured examples, and the events the service
// POSTs to receivers (the document's `webhooks`) with their headers, bodies and the receiver's answers. No dependency and nothing
// loaded at view time: the style is inline, there is no script, every text is escaped.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const doc = JSON.parse(readFileSync(`${root}packages/sdk/openapi.json`, 'utf8'))
// `--out DIR` writes elsewhere (the test does).
const outFlag = process.argv.indexOf('--out')
const outDir = outFlag > 0 ? process.argv[outFlag + 1] : `${root}docs/api-reference`
const REF = '#/components/schemas/'

const esc = (value) =>
  String(value).replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c],
  )
/** The little Markdown the descriptions use: `code` and **bold**. */
const md = (text) =>
  esc(text ?? '')
    .replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
const slug = (text) => text.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '')

/** A short type label for a schema; named components link to their section. */
function typeOf(schema) {
  if (!schema || typeof schema !== 'object') return 'any'
  if (schema.$ref) {
    const name = schema.$ref.slice(REF.length)
    return `<a href="#schema-${slug(name)}">${esc(name)}</a>`
  }
  if (schema.const !== undefined) return `<code>${esc(JSON.stringify(schema.const))}</code>`
  if (schema.enum) return schema.enum.map((v) => `<code>${esc(JSON.stringify(v))}</code>`).join(' | ')
  for (const key of ['anyOf', 'oneOf']) if (schema[key]) return schema[key].map(typeOf).join(' | ')
  if (schema.allOf) return schema.allOf.map(typeOf).join(' &amp; ')
  if (schema.type === 'array') return `${typeOf(schema.items)}[]`
  if (schema.type === 'object' && !schema.properties) {
    return schema.additionalProperties && typeof schema.additionalProperties === 'object'
      ? `map of ${typeOf(schema.additionalProperties)}`
      : 'object'
  }
  return esc(schema.type ?? 'any')
}

/** Constraints worth showing: limits, formats, patterns, defaults. */
function rules(schema) {
  if (!schema || typeof schema !== 'object') return ''
  const out = []
  if (schema.format) out.push(`format ${esc(schema.format)}`)
  if (schema.minLength !== undefined) out.push(`min length ${schema.minLength}`)
  if (schema.maxLength !== undefined) out.push(`max length ${schema.maxLength}`)
  if (schema.minimum !== undefined && schema.minimum > -9007199254740991) out.push(`≥ ${schema.minimum}`)
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`)
  if (schema.maximum !== undefined && schema.maximum < 9007199254740991) out.push(`≤ ${schema.maximum}`)
  if (schema.default !== undefined) out.push(`default <code>${esc(JSON.stringify(schema.default))}</code>`)
  if (schema.pattern && !schema.format) out.push(`pattern <code>${esc(schema.pattern)}</code>`)
  return out.join(', ')
}

/** An object schema as a table of its properties, nested objects indented; others as one line. */
function schemaTable(schema, depth = 0) {
  if (!schema || typeof schema !== 'object') return ''
  const codes = schema.allOf?.[1]?.properties?.error?.properties?.code?.enum
  if (codes) {
    // An error answer: the envelope, with the codes this status can carry.
    return `<p class="type">${typeOf(schema.allOf[0])}, <code>error.code</code>: ${codes.map((c) => `<code>${esc(c)}</code>`).join(', ')}</p>`
  }
  if (schema.allOf) return schema.allOf.map((part) => schemaTable(part, depth)).join('')
  if (schema.type !== 'object' || !schema.properties) {
    return `<p class="type">${typeOf(schema)}${rules(schema) ? ` <span class="rules">${rules(schema)}</span>` : ''}</p>`
  }
  const required = new Set(schema.required ?? [])
  const rows = Object.entries(schema.properties)
    .map(([name, prop]) => {
      const inner =
        depth < 3 && prop && prop.type === 'object' && prop.properties
          ? schemaTable(prop, depth + 1)
          : depth < 3 && prop?.type === 'array' && prop.items?.type === 'object' && prop.items.properties
            ? schemaTable(prop.items, depth + 1)
            : ''
      return `<tr><td><code>${esc(name)}</code>${required.has(name) ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(prop)}</td><td>${rules(prop)}${inner}</td></tr>`
    })
    .join('')
  return `<table class="props"><thead><tr><th>field</th><th>type</th><th>rules</th></tr></thead><tbody>${rows}</tbody></table>`
}

const example = (value) =>
  value === undefined
    ? ''
    : `<details><summary>example (captured from the demo mock)</summary><pre>${esc(JSON.stringify(value, null, 2))}</pre></details>`

function operationHtml(path, method, op, event = false) {
  const id = slug(op.operationId)
  const scopes = (op.security ?? doc.security ?? []).flatMap((s) => s.bearerAuth ?? [])
  const auth = event
    ? 'none sent: verify the <code>X-Service-Signature</code> header (HMAC-SHA256 of the raw body with the webhook secret)'
    : op.security && op.security.length === 0
      ? 'no key'
      : `bearer key${scopes.length > 0 ? `, scope ${scopes.map((s) => `<code>${esc(s)}</code>`).join(', ')}` : ''}`
  const params = (op.parameters ?? [])
    .map(
      (p) =>
        `<tr><td><code>${esc(p.name)}</code> <span class="in">${esc(p.in)}</span>${p.required ? ' <span class="req">required</span>' : ''}</td><td>${typeOf(p.schema)}</td><td>${md(p.description)} ${rules(p.schema)}</td></tr>`,
    )
    .join('')
  const body = op.requestBody?.content?.['application/json']
  const responses = Object.entries(op.responses)
    .map(([status, response]) => {
      const [media, content] = Object.entries(response.content ?? {})[0] ?? []
      return `<div class="response"><h4><span class="status s${esc(status[0])}">${esc(status)}</span> ${md(response.description)}${media && media !== 'application/json' ? ` <code>${esc(media)}</code>` : ''}</h4>${content?.schema && media === 'application/json' ? schemaTable(content.schema) : ''}${example(content?.example)}</div>`
    })
    .join('')
  return `<section class="op${op.deprecated ? ' deprecated' : ''}" id="${id}">
<h3><span class="method ${esc(method)}">${esc(method.toUpperCase())}</span> <code>${esc(event ? `your URL ← ${path}` : path)}</code>${op.deprecated ? ' <span class="dep">deprecated</span>' : ''}</h3>
<p class="summary">${md(op.summary)}</p>
${op.description ? `<p>${md(op.description)}</p>` : ''}
<p class="auth">Auth: ${auth}</p>
${params ? `<h4>Parameters</h4><table class="props"><tbody>${params}</tbody></table>` : ''}
${body ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${schemaTable(body.schema)}${example(body.example)}` : ''}
<h4>${event ? "The receiver's answers" : 'Answers'}</h4>${responses}
</section>`
}

const byTag = new Map((doc.tags ?? []).map((t) => [t.name, []]))
for (const [path, item] of Object.entries(doc.paths)) {
  for (const [method, op] of Object.entries(item)) {
    const tag = op.tags?.[0] ?? 'other'
    if (!byTag.has(tag)) byTag.set(tag, [])
    byTag.get(tag).push({ path, method, op })
  }
}
// The events (`webhooks`): what the service POSTs to a receiver, under their own tags.
for (const [key, item] of Object.entries(doc.webhooks ?? {})) {
  for (const [method, op] of Object.entries(item)) {
    const tag = op.tags?.[0] ?? 'events'
    if (!byTag.has(tag)) byTag.set(tag, [])
    byTag.get(tag).push({ path: key, method, op, event: true })
  }
}
const tagText = Object.fromEntries((doc.tags ?? []).map((t) => [t.name, t.description]))
const count = [...byTag.values()].reduce((n, ops) => n + ops.filter((o) => !o.event).length, 0)
const eventCount = Object.keys(doc.webhooks ?? {}).length

/**
 * A path as the sidebar shows it: without the `/api/v1` every API path shares, and wrapped rather
 * than cut, so that long paths which differ only at their end (the hosting POSTs) stay apart.
 */
const navPath = (path) => path.replace(/^\/api\/v1(?=\/)/, '')
const nav = [...byTag]
  .map(
    ([tag, ops]) =>
      `<li><a href="#tag-${slug(tag)}">${esc(tag)}</a><ul>${ops.map(({ path, method, op, event }) => `<li><a href="#${slug(op.operationId)}" title="${esc(method.toUpperCase())} ${esc(path)}"><span class="method ${esc(method)}">${event ? 'EVENT' : esc(method.toUpperCase())}</span> ${esc(event ? op.summary : navPath(path))}</a></li>`).join('')}</ul></li>`,
  )
  .join('')
const sections = [...byTag]
  .map(
    ([tag, ops]) =>
      `<h2 id="tag-${slug(tag)}">${esc(tag)}</h2><p>${md(tagText[tag])}</p>${ops.map(({ path, method, op, event }) => operationHtml(path, method, op, event)).join('\n')}`,
  )
  .join('\n')
const schemas = Object.entries(doc.components.schemas)
  .map(
    ([name, schema]) =>
      `<section class="schema" id="schema-${slug(name)}"><h3>${esc(name)}</h3>${schemaTable(schema)}</section>`,
  )
  .join('\n')

const css = `
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;display:flex}
nav{position:sticky;top:0;height:100vh;overflow:auto;width:320px;flex:none;border-right:1px solid #d0d7de;padding:1rem;box-sizing:border-box;font-size:13px;background:#f6f8fa}
nav ul{list-style:none;padding-left:.6rem;margin:.2rem 0}nav li li{overflow-wrap:anywhere;margin:.15rem 0}nav a{color:inherit;text-decoration:none}nav a:hover{text-decoration:underline}
main{padding:1rem 2rem;max-width:1000px;min-width:0}
h2{border-bottom:1px solid #d0d7de;margin-top:2.5rem;text-transform:capitalize}
.op{border:1px solid #d0d7de;border-radius:6px;padding:0 1rem 1rem;margin:1rem 0}.op.deprecated{opacity:.8;border-style:dashed}
.method{display:inline-block;min-width:3.6em;text-align:center;border-radius:4px;color:#fff;font:600 12px/1.8 ui-monospace,monospace;padding:0 .3em}
.get{background:#1a7f37}.post{background:#0969da}.put{background:#9a6700}.patch{background:#8250df}.delete{background:#cf222e}
.dep,.req,.in{font-size:11px;border-radius:3px;padding:0 .3em}.dep{background:#fff8c5}.req{background:#ffebe9}.in{background:#ddf4ff}
.status{font:600 13px ui-monospace,monospace;padding:0 .3em;border-radius:3px}.s2{background:#dafbe1}.s4,.s5{background:#ffebe9}.sd{background:#eaeef2}
table.props{border-collapse:collapse;width:100%;font-size:13px;margin:.3rem 0}table.props td,table.props th{border-top:1px solid #eaeef2;padding:.25rem .4rem;text-align:left;vertical-align:top}
table.props table.props{margin-left:.5rem;width:calc(100% - .5rem)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:12.5px}pre{background:#f6f8fa;padding:.6rem;overflow:auto;max-height:24rem}
.rules{color:#57606a}.auth{color:#57606a;font-size:13px}h4{margin:.8rem 0 .2rem}
`
const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>${esc(doc.info.title)} ${esc(doc.info.version)}: API reference</title>
<style>${css}</style>
</head>
<body>
<nav><strong>${esc(doc.info.title)}</strong><br>v${esc(doc.info.version)}, OpenAPI ${esc(doc.openapi)}, ${count} operations, ${eventCount} events<ul>${nav}<li><a href="#schemas">schemas</a></li></ul></nav>
<main>
<h1>${esc(doc.info.title)}</h1>
<p>${md(doc.info.description)}</p>
<p>Servers: ${(doc.servers ?? []).map((s) => `<code>${esc(s.url)}</code> (${md(s.description)})`).join(', ')}.
Authentication: <code>Authorization: Bearer &lt;API key&gt;</code>. ${md(doc.components.securitySchemes.bearerAuth.description)}</p>
<p>The document itself: <code>@reseller-api/sdk/openapi.json</code>, or <code>GET /__mock/openapi.json</code> on a running mock.</p>
${sections}
<h2 id="schemas">Schemas</h2>
${schemas}
</main>
</body>
</html>
`
mkdirSync(outDir, { recursive: true })
writeFileSync(`${outDir}/index.html`, html)
console.log(
  `API reference: ${count} operations, ${eventCount} events, ${(Buffer.byteLength(html) / 1024).toFixed(1)} KiB → ${outDir}/index.html`,
)
