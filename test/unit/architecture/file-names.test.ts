// One way to name a module's files: `<area>.<role>.ts`, where the area is the module's folder (or
// `<folder>-<part>` for one part of it: `audio-speech.service.ts`) and the role one of ROLES, the list
// docs/architecture.md gives. So a file's name says which area it belongs to and what kind of file it
// is, and a newcomer finds the routes, the SQL or the refusals of any area in the same place.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

/** The roles a module file may have, as docs/architecture.md lists them (a test below keeps the two the same). */
const ROLES = [
  'module',
  'routes',
  'admin',
  'page',
  'hook',
  'schemas',
  'input',
  'stream',
  'service',
  'repo',
  'state',
  'settings',
  'config',
  'models',
  'fixtures',
  'errors',
] as const

const MODULES = join(import.meta.dirname, '../../../src/emulator/modules')

/** Every file in a module's folder, as `<folder>/<file>`. */
function moduleFiles(): string[] {
  return readdirSync(MODULES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((folder) => readdirSync(join(MODULES, folder.name), { recursive: true, encoding: 'utf8' }).map((file) => `${folder.name}/${file}`))
    .filter((path) => path.endsWith('.ts'))
}

const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('module file names', () => {
  it('are <area>.<role>.ts, with the area its folder (or a part of it) and a known role', () => {
    const wrong = moduleFiles().filter((path) => {
      const [folder, ...rest] = path.split('/')
      const name = new RegExp(`^${escape(folder!)}(-[a-z0-9]+(-[a-z0-9]+)*)?\\.(${ROLES.join('|')})\\.ts$`)
      return rest.length !== 1 || !name.test(rest[0]!)
    })
    expect(wrong, `name these <area>.<role>.ts with a role of ${ROLES.join(', ')}`).toEqual([])
  })

  it('uses the roles docs/architecture.md lists, and only those', () => {
    const doc = readFileSync(join(import.meta.dirname, '../../../docs/architecture.md'), 'utf8')
    const table = /<!-- roles -->\n([\s\S]*?)<!-- \/roles -->/.exec(doc)
    expect(table, 'docs/architecture.md lacks the <!-- roles --> table').not.toBeNull()
    const listed = [...table![1]!.matchAll(/^\| `\.([a-z]+)` \|/gm)].map(([, role]) => role)
    expect(listed).toEqual([...ROLES])
  })
})
