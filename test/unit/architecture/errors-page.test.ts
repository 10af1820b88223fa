// Every refusal is a named function in its area's `*.errors.ts`, and docs/errors.md lists them all as
// the code writes them. The page is written by `npm run docs:errors`; this fails when it is stale, or
// when an ApiError is built anywhere else.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { currentTables, refusals, withErrorsTables } from '../../../scripts/errors-table.ts'

const SRC = join(import.meta.dirname, '../../../src/emulator')

/**
 * Where an ApiError may be built besides the errors files. Files another branch of issue 36 moves or
 * rewrites keep theirs until its merge (removed after the merge).
 */
const ELSEWHERE: Readonly<Record<string, string>> = {
  'core/errors.ts': 'the ApiError itself, and the kernel-wide fieldError and notFound',
  'core/lifecycle.ts': "importRowError, the field-shaped 400 of an imported row (fieldError's kin)",
  'faults/faults.ts': "faultError: what a fault rule or a chat fixture answers is the rule's own status and words",
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  )
}

describe('the errors page', () => {
  it('keeps docs/errors.md as the errors files write the refusals (npm run docs:errors rewrites it)', () => {
    const page = readFileSync(join(import.meta.dirname, '../../../docs/errors.md'), 'utf8')
    expect(withErrorsTables(page, currentTables())).toBe(page)
  })

  it('reads a status and a message through the file’s helpers', () => {
    const text = [
      "const query = (field: string, issue: string): ApiError => fieldError(field, issue, 'querystring')",
      '/** A date it cannot read. */',
      "export const notADate = (field: string): ApiError => query(field, 'must be a calendar date')",
      'export const gone = (id: string, at: number): ApiError => new ApiError(410, `Thing ${id} went at ${at}`, { metadata: { id } })',
    ].join('\n')
    expect(refusals(text)).toEqual([
      {
        name: 'notADate',
        params: 'field',
        doc: 'A date it cannot read.',
        answers: [{ status: '400', message: 'Query parameter `{field}` must be a calendar date' }],
      },
      { name: 'gone', params: 'id, at', doc: '', answers: [{ status: '410', message: 'Thing {id} went at {at}' }] },
    ])
  })
})

describe('refusals', () => {
  it('are built only in the errors files', () => {
    const built = sources(SRC)
      .map((file) => relative(SRC, file).split('\\').join('/'))
      .filter((path) => !path.endsWith('.errors.ts') && !(path in ELSEWHERE))
      .filter((path) => readFileSync(join(SRC, path), 'utf8').includes('new ApiError('))
    expect(built, 'name the refusal in its area’s *.errors.ts and throw that').toEqual([])
  })

  it('keeps its allow-list to files that still build one', () => {
    const stale = Object.keys(ELSEWHERE).filter((path) => {
      try {
        return !readFileSync(join(SRC, path), 'utf8').includes('new ApiError(')
      } catch {
        return true
      }
    })
    expect(stale).toEqual([])
  })
})
