// One implementation of `@reseller-api/sdk/webhooks`: a single source entry that only re-exports,
// built once per runtime binding (tsup.config.ts), and every public name declared in exactly one
// source module. Read from the source text, so no build is needed.
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import tsupConfig from '../tsup.config.js'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const src = join(root, 'src')
const ENTRY = join(src, 'webhooks/index.ts')

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

/** The names a module's top-level statements declare (functions, classes, consts, types, ...). */
function declaredNames(file: ts.SourceFile): Set<string> {
  const names = new Set<string>()
  for (const statement of file.statements) {
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.add(declaration.name.text)
    } else if (
      (ts.isFunctionDeclaration(statement) ||
        ts.isClassDeclaration(statement) ||
        ts.isInterfaceDeclaration(statement) ||
        ts.isTypeAliasDeclaration(statement) ||
        ts.isEnumDeclaration(statement)) &&
      statement.name
    ) {
      names.add(statement.name.text)
    }
  }
  return names
}

/** `export { a, b as c } from './x.js'`: each public name with the module and the name it comes from. */
function reExports(file: ts.SourceFile): { name: string; from: string; original: string }[] {
  const found: { name: string; from: string; original: string }[] = []
  for (const statement of file.statements) {
    if (!ts.isExportDeclaration(statement) || !statement.moduleSpecifier) continue
    if (!statement.exportClause || !ts.isNamedExports(statement.exportClause)) continue
    const from = (statement.moduleSpecifier as ts.StringLiteral).text
    for (const element of statement.exportClause.elements)
      found.push({ name: element.name.text, from, original: (element.propertyName ?? element.name).text })
  }
  return found
}

const entry = parse(ENTRY)
const publicNames = reExports(entry)

describe('the webhooks entry module', () => {
  it('only re-exports, by name: it declares nothing and has no `export *`', () => {
    const other = entry.statements.filter(
      (statement) =>
        !(
          ts.isExportDeclaration(statement) &&
          statement.moduleSpecifier &&
          statement.exportClause &&
          ts.isNamedExports(statement.exportClause)
        ),
    )
    expect(other.map((statement) => statement.getText().slice(0, 80))).toEqual([])
    expect(publicNames.length).toBeGreaterThan(10)
  })

  it('lists every runtime export it has', async () => {
    const runtime = Object.keys(await import('../src/webhooks/index.js')).sort()
    expect(runtime.length).toBeGreaterThan(0)
    expect(publicNames.map((entry) => entry.name)).toEqual(expect.arrayContaining(runtime))
  })

  it('is the one source of both builds, the default and the `node` one', () => {
    const configs = Array.isArray(tsupConfig) ? tsupConfig : [tsupConfig]
    const webhooksEntries = configs.flatMap((config) =>
      Object.entries((config as { entry?: Record<string, string> }).entry ?? {}).filter(([name]) =>
        name.startsWith('webhooks/'),
      ),
    )
    expect(Object.fromEntries(webhooksEntries)).toEqual({
      'webhooks/index': 'src/webhooks/index.ts',
      'webhooks/node': 'src/webhooks/index.ts',
    })
  })
})

describe('each public name of @reseller-api/sdk/webhooks', () => {
  const declarations = new Map<string, string[]>()
  for (const file of sourceFiles(src)) {
    for (const name of declaredNames(parse(file))) {
      declarations.set(name, [...(declarations.get(name) ?? []), relative(src, file)])
    }
  }

  it.each(publicNames)(
    '$name is declared in exactly one source module, the one it is exported from',
    ({ name, from, original }) => {
      expect(name).toBe(original)
      const target = relative(src, resolve(dirname(ENTRY), from.replace(/\.js$/, '.ts')))
      expect(declarations.get(name)).toEqual([target])
    },
  )
})
