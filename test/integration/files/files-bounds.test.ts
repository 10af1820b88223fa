// An imported document's files are held to the room the upload API keeps: so many files per account
// (and in all), a file's bytes at most what one upload takes. Past one, a 400 names the row and nothing
// changes.
import { describe, expect, it } from 'vitest'
import { MAX_ACCOUNT_FILES, MAX_FILE_BYTES } from '../../../src/emulator/modules/files/files.schemas.ts'
import { testEmulator } from '../../helpers/emulator.ts'
import { exportDoc, importDoc, laidId, withTables } from '../../helpers/state-doc.ts'

describe('an imported document is held to the files room', () => {
  it('refuses one file too many in an account, and a file larger than an upload may be, naming the row', async () => {
    const emu = await testEmulator()
    const account = (await emu.get('/_emulator/api/accounts')).body.data[0]
    const made = await emu.send('POST', `/_emulator/api/accounts/${account.id}/files`, {
      filename: 'a.txt',
      content_base64: Buffer.from('hello').toString('base64'),
    })
    expect(made.status).toBe(201)
    const doc = await exportDoc(emu)
    const [file] = doc.tables['files']!
    const refusal = (field: string, issue: string) => ({
      code: 400,
      message: `Field \`${field}\` ${issue}`,
      metadata: expect.objectContaining({ field, issue }),
    })

    const many = Array.from({ length: MAX_ACCOUNT_FILES + 1 }, (_, i) => ({ ...file, id: `file-laid-${laidId(0, i)}` }))
    const tooMany = await importDoc(emu, withTables(doc, { files: many }))
    expect(tooMany.status).toBe(400)
    expect(tooMany.body.error).toEqual(refusal(`tables.files[${MAX_ACCOUNT_FILES}].account_id`, `is past the ${MAX_ACCOUNT_FILES} files one account keeps`))

    const bytes = MAX_FILE_BYTES + 3
    // The bound is checked on the row, before its parts are.
    const big = { ...file, size_bytes: bytes }
    const tooBig = await importDoc(emu, withTables(doc, { files: [big] }))
    expect(tooBig.status).toBe(400)
    expect(tooBig.body.error).toEqual(refusal('tables.files[0].size_bytes', `must be at most ${MAX_FILE_BYTES} (the most one file may hold)`))

    expect((await exportDoc(emu)).tables).toEqual(doc.tables)
  })
})
