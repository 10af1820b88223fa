// The emulator's sources as the architecture tests read them: every file, each module's folder, the
// strings of a file (parsed with swc, so comments are left out) and the files it imports (type
// imports included).
import { parseSync } from '@swc/core'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { MODULES } from '../../src/emulator/modules/index.ts'

export const SRC = resolve(import.meta.dirname, '../../src/emulator')

/** Every TypeScript file under src/emulator, as absolute paths. */
export function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return sourceFiles(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

/** Each module's folder (the one holding its `<name>.module.ts`), by module name. */
export function moduleFolders(): Map<string, string> {
  const definitions = new Map(sourceFiles().map((file) => [file.slice(file.lastIndexOf('/') + 1), dirname(file)]))
  return new Map(MODULES.map((module) => [module.name, definitions.get(`${module.name}.module.ts`)!]))
}

type Node = Record<string, unknown>

function walk(node: unknown, visit: (node: Node) => void): void {
  if (node === null || typeof node !== 'object') return
  if (Array.isArray(node)) {
    for (const child of node) walk(child, visit)
    return
  }
  visit(node as Node)
  for (const [key, child] of Object.entries(node)) if (key !== 'span') walk(child, visit)
}

/** The string literals of a source, a template literal as one text (its expressions as `${}`); no comments. */
export function stringsOf(source: string): string[] {
  const strings: string[] = []
  walk(parseSync(source, { syntax: 'typescript' }), (node) => {
    if (node['type'] === 'StringLiteral') strings.push(node['value'] as string)
    if (node['type'] === 'TemplateLiteral' || node['type'] === 'TsTemplateLiteralType')
      strings.push((node['quasis'] as Array<{ raw: string }>).map((quasi) => quasi.raw).join('${}'))
  })
  return strings
}

/** What a file imports or re-exports (type imports too), statically or by `import()`. */
const IMPORT = /(?:^|[\n;])\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|(?:^|[\n;])\s*import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/g

/** The files of src/ a file imports or re-exports, type imports and dynamic imports included. */
export function importsOf(file: string): string[] {
  const out: string[] = []
  for (const match of readFileSync(file, 'utf8').matchAll(IMPORT)) {
    const source = match[1] ?? match[2] ?? match[3]!
    if (source.startsWith('.')) out.push(resolve(dirname(file), source))
  }
  return out
}
