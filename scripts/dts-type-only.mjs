// Keeps the type-only exports of a source entry type-only in its bundled declaration file.
//
// tsup bundles declarations with rollup-plugin-dts, which writes `export type { X }` of the source
// as `export { X }` whenever X also has a value meaning where it is declared (a class such as
// `HostingResource`, a zod schema and its inferred type such as `PageParams`): the `.d.ts` then
// promises a value the JavaScript does not export, and `x instanceof HostingResource` type-checks
// and throws at run time. This moves every name the source exports with `export type` (or
// `type X` in a list) into an `export type { … }` of the declaration file, where TypeScript refuses
// it as a value. scripts/lib/declared-exports.mjs checks the result for every entry.
//
//   node scripts/dts-type-only.mjs dist/index.d.ts=src/index.ts [more pairs…]   (in a package)
import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('..', import.meta.url)))
const ts = createRequire(join(root, 'package.json'))('typescript')

/** The names a source module exports type-only. */
function typeOnlyExports(sourceFile) {
  const source = ts.createSourceFile(sourceFile, readFileSync(sourceFile, 'utf8'), ts.ScriptTarget.Latest)
  const names = new Set()
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.exportClause) continue
    if (!ts.isNamedExports(statement.exportClause)) continue
    for (const element of statement.exportClause.elements)
      if (statement.isTypeOnly || element.isTypeOnly) names.add(element.name.text)
  }
  return names
}

/** The declaration text with the `names` of its `export { … }` statements moved to `export type`. */
export function markTypeOnly(text, names) {
  const source = ts.createSourceFile('entry.d.ts', text, ts.ScriptTarget.Latest)
  const edits = []
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.exportClause) continue
    if (!ts.isNamedExports(statement.exportClause)) continue
    const elements = statement.exportClause.elements
    const typeOnly = elements.filter((e) => names.has(e.name.text))
    if (typeOnly.length === 0) continue
    const rest = elements.filter((e) => !names.has(e.name.text))
    const from = statement.moduleSpecifier ? ` from ${statement.moduleSpecifier.getText(source)}` : ''
    const list = (items) => items.map((e) => e.getText(source)).join(', ')
    const replacement = [
      rest.length > 0 ? `export { ${list(rest)} }${from};` : undefined,
      `export type { ${list(typeOnly)} }${from};`,
    ]
      .filter(Boolean)
      .join('\n')
    edits.push({ start: statement.getStart(source), end: statement.getEnd(), replacement })
  }
  let out = text
  for (const { start, end, replacement } of edits.reverse())
    out = out.slice(0, start) + replacement + out.slice(end)
  return out
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  for (const pair of process.argv.slice(2)) {
    const [declarations, source] = pair.split('=')
    if (!declarations || !source) throw new Error(`expected DECLARATIONS=SOURCE, got "${pair}"`)
    const text = readFileSync(declarations, 'utf8')
    const fixed = markTypeOnly(text, typeOnlyExports(source))
    if (fixed !== text) writeFileSync(declarations, fixed)
  }
}
