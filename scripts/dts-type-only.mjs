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

/** The source file an import specifier of `from` names (`./x.js` is `./x.ts`). */
function sourceOf(from, specifier) {
  return resolve(from, '..', specifier).replace(/\.js$/, '.ts')
}

/**
 * What a source module exports, by name: `values` (classes, functions, constants, re-exported
 * values) and `types` (names exported with `export type`, `type X` in a list, or `export type *`),
 * following `export *` and `export type *` to the modules they name.
 */
function sourceExports(file, seen = new Map()) {
  if (seen.has(file)) return seen.get(file)
  const result = { values: new Set(), types: new Set() }
  seen.set(file, result)
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest)
  const exported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (!clause && statement.moduleSpecifier) {
        const inner = sourceExports(sourceOf(file, statement.moduleSpecifier.text), seen)
        for (const name of inner.values) (statement.isTypeOnly ? result.types : result.values).add(name)
        for (const name of inner.types) result.types.add(name)
      } else if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements)
          (statement.isTypeOnly || element.isTypeOnly ? result.types : result.values).add(element.name.text)
      }
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      exported(statement) &&
      statement.name
    ) {
      result.values.add(statement.name.text)
    } else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) result.values.add(declaration.name.text)
    }
  }
  return result
}

/** The names a source module exports as types only (never as a value, by any of its exports). */
function typeOnlyExports(sourceFile) {
  const { values, types } = sourceExports(sourceFile)
  return new Set([...types].filter((name) => !values.has(name)))
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
