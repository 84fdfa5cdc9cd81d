// Declarations must promise exactly what the JavaScript exports: every value that an entry's
// `.d.ts` exports (what `import * as ns` gives a TypeScript user: classes, functions, constants)
// must exist at run time in each JavaScript file that entry resolves to. A class exported as a
// type only (`export type { HostingResource }`) is no value: `x instanceof HostingResource` then
// fails to compile rather than throw.
//
// Generic over the packages' `exports` maps: every entry with a `types` condition, and every
// JavaScript condition of it (`node`, `default`, …). Run by packages/mock/test/process/
// declared-exports.test.ts over the built dist/ of both packages, and usable on its own:
//   node scripts/lib/declared-exports.mjs packages/sdk packages/mock
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(fileURLToPath(new URL('../..', import.meta.url)))
const ts = createRequire(join(root, 'package.json'))('typescript')

/** Every `{ subpath, types, scripts: [{ condition, file }] }` of a package's exports map. */
export function entriesOf(packageDir) {
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'))
  const entries = []
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    if (typeof target !== 'object' || target === null || typeof target.types !== 'string') continue
    const scripts = Object.entries(target)
      .filter(
        ([condition, file]) => condition !== 'types' && typeof file === 'string' && /\.[cm]?js$/.test(file),
      )
      .map(([condition, file]) => ({ condition, file: resolve(packageDir, file) }))
    entries.push({
      name: `${manifest.name}${subpath === '.' ? '' : subpath.slice(1)}`,
      types: resolve(packageDir, target.types),
      scripts,
    })
  }
  return entries
}

/** The value exports a `.d.ts` promises: the properties of `typeof import('…')`. */
export function declaredValues(typesFile) {
  const dir = mkdtempSync(join(tmpdir(), 'declared-exports-'))
  try {
    const probe = join(dir, 'probe.mts')
    const specifier = typesFile.replace(/\.d\.([cm]?)ts$/, '.$1js')
    writeFileSync(probe, `import * as ns from ${JSON.stringify(specifier)}\nexport const probe = ns\n`)
    const program = ts.createProgram([probe], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      skipLibCheck: true,
      noEmit: true,
      types: [],
    })
    const checker = program.getTypeChecker()
    const source = program.getSourceFile(probe)
    const statement = source.statements.find(ts.isVariableStatement)
    const declaration = statement.declarationList.declarations[0]
    const type = checker.getTypeAtLocation(declaration.name)
    const names = checker.getPropertiesOfType(type).map((symbol) => symbol.getName())
    if (names.length === 0) {
      const errors = ts
        .getPreEmitDiagnostics(program)
        .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))
      if (errors.length > 0) throw new Error(`${typesFile}: ${errors.join('; ')}`)
    }
    return names.sort()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * The names an ES module file exports, read from its text (not run: the vitest entry may only be
 * loaded inside a test run): `export { a, b as c }`, `export function|class|const …`,
 * `export default`, and `export * from './x.js'` followed.
 */
export function moduleExports(file, seen = new Set()) {
  if (seen.has(file)) return new Set()
  seen.add(file)
  const source = ts.createSourceFile(
    file,
    readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.JS,
  )
  const names = new Set()
  const exported = (node) => ts.getCombinedModifierFlags(node) & ts.ModifierFlags.Export
  for (const statement of source.statements) {
    if (ts.isExportDeclaration(statement)) {
      const clause = statement.exportClause
      if (!clause && statement.moduleSpecifier) {
        const target = resolve(file, '..', statement.moduleSpecifier.text)
        for (const name of moduleExports(target, seen)) if (name !== 'default') names.add(name)
      } else if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) names.add(element.name.text)
      } else if (clause && ts.isNamespaceExport(clause)) names.add(clause.name.text)
    } else if (ts.isExportAssignment(statement)) names.add('default')
    else if (
      (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) &&
      exported(statement)
    ) {
      names.add(
        ts.getCombinedModifierFlags(statement) & ts.ModifierFlags.Default ? 'default' : statement.name.text,
      )
    } else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text)
    }
  }
  return names
}

/** Every value an entry's declarations export that one of its JavaScript files lacks, as lines. */
export async function missingValues(packageDirs) {
  const problems = []
  let checked = 0
  for (const dir of packageDirs) {
    for (const entry of entriesOf(resolve(dir))) {
      const declared = declaredValues(entry.types)
      for (const { condition, file } of entry.scripts) {
        const actual = moduleExports(file)
        checked++
        for (const name of declared) {
          if (!actual.has(name))
            problems.push(
              `${entry.name}: the declarations export the value ${name}, which ${file} (condition "${condition}") does not`,
            )
        }
      }
    }
  }
  return { problems, checked }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dirs = process.argv.slice(2)
  const { problems, checked } = await missingValues(
    dirs.length > 0 ? dirs : ['packages/sdk', 'packages/mock'],
  )
  for (const line of problems) console.error(line)
  console.log(`${checked} entry files checked, ${problems.length} value(s) declared but not exported`)
  process.exit(problems.length > 0 ? 1 : 0)
}
